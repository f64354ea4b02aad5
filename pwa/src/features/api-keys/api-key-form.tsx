import { useId, useState, type FormEvent } from 'react';
import { apiKeyScopes, type ApiKeyScope, type CreatedApiKey } from '../../../../edge-api/src/contract/partners.ts';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { AppError } from '../../lib/app-error.ts';

/** What each scope lets a key do, in the words the form shows. */
export const scopeLabels: Record<ApiKeyScope, string> = {
  'services:read': 'Read services and prices',
  'orders:write': 'Place orders',
  'orders:read': 'Read its orders and deliveries, and manage its webhooks',
};

function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AppError) || !Array.isArray(error.details))
    return { form: error instanceof AppError ? error.message : 'The key could not be made. Try again.' };
  return Object.fromEntries((error.details as { path: string; message: string }[]).map((d) => [d.path.split('.')[0]!, d.message]));
}

/** The form's fields and faults, and the making of the key. */
function useApiKeyForm(onCreated: (key: CreatedApiKey) => void) {
  const [userId, setUserId] = useState('');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['services:read', 'orders:write', 'orders:read']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!userId) {
      setErrors({ userId: 'Choose the account the key acts as' });
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      const created = await unwrap(api.admin['api-keys'].$post({ json: { userId, name, scopes } }));
      setName('');
      onCreated(created);
    } catch (cause) {
      setErrors(fieldErrors(cause));
    } finally {
      setSaving(false);
    }
  };
  return { userId, setUserId, name, setName, scopes, setScopes, errors, saving, submit };
}

function ScopesFieldset({
  scopes,
  setScopes,
  describedBy,
  error,
}: {
  scopes: ApiKeyScope[];
  setScopes: (scopes: ApiKeyScope[]) => void;
  describedBy: string | undefined;
  error: React.ReactNode;
}) {
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="mb-1 text-sm font-semibold">Scopes</legend>
      <div className="flex flex-wrap gap-2">
        {apiKeyScopes.map((scope) => (
          <label key={scope} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-box border border-base-300 px-3">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={scopes.includes(scope)}
              onChange={(event) => setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
            />
            {scopeLabels[scope]}
          </label>
        ))}
      </div>
      {error}
    </fieldset>
  );
}

/** New API Key (decision 173): the account it acts as, a name, and its scopes. */
export function ApiKeyForm({ users, onCreated }: { users: User[]; onCreated: (key: CreatedApiKey) => void }) {
  const id = useId();
  const { userId, setUserId, name, setName, scopes, setScopes, errors, saving, submit } = useApiKeyForm(onCreated);
  const error = (key: string) =>
    errors[key] && (
      <p id={`${id}-${key}-error`} className="mt-1 text-sm text-error">
        {errors[key]}
      </p>
    );
  const described = (key: string) => (errors[key] ? `${id}-${key}-error` : undefined);

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="card space-y-4 border border-base-300 bg-base-100 p-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        New API Key
      </h2>
      {errors.form && (
        <p role="alert" className="alert alert-error">
          {errors.form}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-user`} className="mb-1 block text-sm font-semibold">
            Account
          </label>
          <select
            id={`${id}-user`}
            className="select w-full"
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
            aria-invalid={errors.userId ? true : undefined}
            aria-describedby={described('userId')}
          >
            <option value="">Choose the account it acts as</option>
            {users.map((user) => (
              <option key={user.uid} value={user.uid}>
                {user.displayName} ({user.email})
              </option>
            ))}
          </select>
          {error('userId')}
        </div>
        <div>
          <label htmlFor={`${id}-name`} className="mb-1 block text-sm font-semibold">
            Name
          </label>
          <input
            id={`${id}-name`}
            className="input w-full"
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={described('name')}
          />
          {error('name')}
        </div>
      </div>
      <ScopesFieldset scopes={scopes} setScopes={setScopes} describedBy={described('scopes')} error={error('scopes')} />
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary min-h-11" disabled={saving}>
          {saving ? 'Making…' : 'Make Key'}
        </button>
      </div>
    </form>
  );
}
