import { useCallback, useEffect, useState } from 'react';
import type { AdminWebhook, ApiKey, CreatedApiKey } from '../../../../edge-api/src/contract/partners.ts';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { fetchAllPages, useKeysetPages, type KeysetPages } from '../../lib/list-pages.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { ApiKeyForm, scopeLabels } from './api-key-form.tsx';
import { WebhookList } from './webhook-list.tsx';

/** API Keys (/dashboard/api-keys; admins, online): keys for resellers and automation (decision 173). */
export function ApiKeysPage() {
  const { can } = useAuthorization();
  if (!can('settings:manage')) return <NoAccess screen="API Keys" message="You do not have permission to access this data. API keys are made by admins." />;
  return <ApiKeysEditor />;
}

type Loaded = { users: User[]; webhooks: AdminWebhook[] } | null | 'failed';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** The key just made, shown once: its secret to copy. */
function NewKeyNotice({ shown, onDone }: { shown: CreatedApiKey; onDone: () => void }) {
  const toast = useToast();
  return (
    <section role="status" aria-labelledby="new-key-title" className="alert alert-warning flex flex-col items-start gap-2">
      <h2 id="new-key-title" className="font-bold">
        Copy the key for {shown.name} now: it is not shown again
      </h2>
      <code className="break-all rounded bg-base-100 p-2 text-sm text-base-content">{shown.secret}</code>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-sm min-h-11"
          onClick={() => void navigator.clipboard?.writeText(shown.secret).then(() => toast.success('Key copied', 1500))}
        >
          Copy Key
        </button>
        <button type="button" className="btn btn-sm btn-ghost min-h-11" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/** The keys, active or revoked, a page at a time newest first with "Load more" (decision 242); Revoke on the active ones. */
function KeyList({ pages, onRevoke }: { pages: KeysetPages<ApiKey>; onRevoke: (key: ApiKey) => void }) {
  const keys = pages.items ?? [];
  return (
    <section aria-labelledby="key-list-title" className="space-y-2">
      <h2 id="key-list-title" className="text-lg font-bold">
        All Keys
      </h2>
      {keys.length === 0 && <p>No API keys yet.</p>}
      <ul className="space-y-2">
        {keys.map((key) => (
          <li key={key.id} className="card flex flex-row flex-wrap items-center justify-between gap-3 border border-base-300 bg-base-100 p-3">
            <div className="min-w-0 space-y-1 text-sm">
              <p className="text-base font-bold">
                {key.name} <code className="font-normal">{key.prefix}…</code>{' '}
                <span className={`badge ${key.revokedAt ? 'badge-ghost' : 'badge-success'}`}>{key.revokedAt ? 'Revoked' : 'Active'}</span>
              </p>
              <p className="break-all">For {key.userEmail}</p>
              <p>{key.scopes.map((scope) => scopeLabels[scope]).join(' · ')}</p>
              <p>
                Made {when(key.createdAt)} · last used {when(key.lastUsedAt)}
                {key.revokedAt && ` · revoked ${when(key.revokedAt)}`}
              </p>
            </div>
            {!key.revokedAt && (
              <button type="button" className="btn btn-outline btn-error min-h-11" onClick={() => onRevoke(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      {pages.failed && keys.length > 0 && <p role="alert">More keys could not be loaded. Try again.</p>}
      <LoadMore hasMore={pages.hasMore} loading={pages.loading} onLoadMore={pages.loadMore} what="API keys" />
    </section>
  );
}

function ApiKeysEditor() {
  usePageTitle('API Keys');
  const toast = useToast();
  const [view, setView] = useState<Loaded>(null);
  const [shown, setShown] = useState<CreatedApiKey | null>(null);
  const keys = useKeysetPages<ApiKey>((args) => api.admin['api-keys'].$get(args), true);
  const { reload } = keys;
  const load = useCallback(() => {
    setView(null);
    Promise.all([fetchAllPages((args) => api.users.$get(args)), unwrap(api.admin['api-keys'].webhooks.$get())]).then(
      ([users, webhooks]) => setView({ users, webhooks }),
      () => setView('failed'),
    );
  }, []);
  useEffect(load, [load]);
  const retry = () => {
    load();
    void reload();
  };
  if (view === 'failed' || (keys.failed && keys.items === null))
    return <ErrorState title="Error!" message="Failed to load the API keys. API keys are managed online." onRetry={retry} />;
  if (view === null || keys.items === null) return <LoadingState text="Loading API keys..." />;

  // A revoked key stays where it is; a new one comes first.
  const replace = keys.put;
  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke ${key.name} (${key.prefix}…)? Requests with it are refused at once.`)) return;
    try {
      replace(await unwrap(api.admin['api-keys'][':id'].revoke.$post({ param: { id: key.id } })));
      toast.success(`${key.name} revoked`, 2000);
    } catch {
      toast.error(`${key.name} could not be revoked. Try again.`);
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-4">
      <header>
        <h1 className="text-2xl font-bold">API Keys</h1>
        <p className="text-sm">
          A key acts as its account on the public API (
          <a className="link" href="/api/openapi.json">
            OpenAPI document
          </a>
          ). The server keeps only a hash: a key is shown once, when it is made.
        </p>
      </header>
      <ApiKeyForm
        users={view.users}
        onCreated={(key) => {
          replace(key);
          setShown(key);
        }}
      />
      {shown && <NewKeyNotice shown={shown} onDone={() => setShown(null)} />}
      <KeyList pages={keys} onRevoke={(key) => void revoke(key)} />
      <WebhookList webhooks={view.webhooks} onChange={load} />
    </div>
  );
}
