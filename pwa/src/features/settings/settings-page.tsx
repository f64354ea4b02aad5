import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { settingsBody } from '../../../../edge-api/src/contract/settings-requests.ts';
import { MAX_WALLETS, withDefaultSettings, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { keepPublicOnDevice } from '../../db/device-copy.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode, isApiAnswer } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { checkWith, problemsFromAnswer, type FieldProblems } from '../../lib/form-problems.ts';
import { PaymentInstructionsEditor } from './payment-instructions-editor.tsx';
import { addWallet, fieldGroups, removeWallet, setSocial, setText, setWallet, shiftWalletErrors, socialFields } from './settings-form.ts';

type Loaded = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; settings: SiteSettings; source: 'server' | 'device' };

/** The copy synced to this device, over the defaults; null when none was ever synced. */
async function storedSettings(): Promise<SiteSettings | null> {
  const stored = await getPublicDb().settings.get('site');
  if (!stored) return null;
  const { id: _id, ...settings } = stored;
  return withDefaultSettings(settings);
}

/** Settings (/dashboard/settings): the shop's name, links, contact details and wallets; admins only. */
export function SettingsPage() {
  const { can } = useAuthorization();
  if (!can('settings:manage')) return <NoAccess screen="Settings" message="You do not have permission to access this data. The shop's settings are changed by admins." />;
  return <SettingsEditor />;
}

function SettingsEditor() {
  usePageTitle('Settings');
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  // The server's copy when it can be reached (kept on the device, and read from there): editing stale
  // values would overwrite newer ones.
  const load = useCallback(async () => {
    setLoaded({ kind: 'loading' });
    if (navigator.onLine) {
      try {
        await keepPublicOnDevice({ settings: await unwrap(api.settings.$get()) });
        const stored = await storedSettings();
        if (stored) {
          setLoaded({ kind: 'ready', settings: stored, source: 'server' });
          return;
        }
      } catch (error) {
        console.error('Failed to load settings', error);
        if (isApiAnswer(error)) {
          setLoaded({ kind: 'error' });
          return;
        }
      }
    }
    const stored = await storedSettings().catch(() => null);
    setLoaded(stored ? { kind: 'ready', settings: stored, source: 'device' } : { kind: 'error' });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="text-2xl font-bold">Settings</h1>
        <p className="text-base-content/80">The shop&apos;s name, chat links, contact details and payment wallets, as customers see them.</p>
      </header>
      {loaded.kind === 'loading' && <LoadingState text="Loading settings..." />}
      {loaded.kind === 'error' && <ErrorState title="Error!" message="Failed to load settings" onRetry={() => void load()} />}
      {loaded.kind === 'ready' && <SettingsForm initial={loaded.settings} fromDevice={loaded.source === 'device'} onReload={() => void load()} />}
    </div>
  );
}

function SettingsForm({ initial, fromDevice, onReload }: { initial: SiteSettings; fromDevice: boolean; onReload: () => void }) {
  const toast = useToast();
  const { online } = useSyncStatus();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [settings, setSettings] = useState(initial);
  const [errors, setErrors] = useState<FieldProblems>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editable = online && !fromDevice;

  const fieldId = (path: string) => `${id}-${path.replaceAll('.', '-')}`;
  const clearError = (path: string) => {
    if (path in errors) setErrors(({ [path]: _gone, ...rest }) => rest);
  };
  const errorProps = (path: string) =>
    errors[path] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(path)}-error` } : {};
  const errorText = (path: string, label: string) =>
    errors[path] ? (
      <p id={`${fieldId(path)}-error`} className="mt-1 text-sm text-error">
        {label} {errors[path]}
      </p>
    ) : null;

  const showProblems = (found: FieldProblems) => {
    setErrors(found);
    setFormError('Please correct the highlighted fields.');
    // After the messages render, so the first invalid field is found.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    // The API's own rules, checked before anything is sent.
    const found = checkWith(settingsBody, settings);
    if (Object.keys(found).length > 0) {
      showProblems(found);
      return;
    }
    setSaving(true);
    setFormError(null);
    try {
      const saved = await unwrap(api.settings.$put({ json: settings }));
      await keepPublicOnDevice({ settings: saved });
      requestSync().catch((error: unknown) => console.warn('Sync after saving settings failed', error));
      setSettings(saved);
      setErrors({});
      toast.success('Settings saved successfully');
    } catch (error) {
      console.error('Failed to save settings', error);
      const fields = problemsFromAnswer(error);
      setErrors(fields);
      if (Object.keys(fields).length > 0) {
        showProblems(fields);
      } else if (hasCode(error, 'unauthorized', 'forbidden')) {
        setFormError('Permission Denied! You need admin privileges to change the settings.');
      } else {
        setFormError('Failed to save settings');
      }
      toast.error('Failed to save settings');
    } finally {
      setSaving(false);
    }
  };

  const labelClass = 'label mb-1 block text-sm font-medium text-base-content';
  const cardClass = 'card border border-base-300 bg-base-100 shadow-sm';

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="space-y-6" aria-busy={saving}>
      {!editable && (
        <div className="alert alert-warning">
          <span>{online ? 'The server cannot be reached' : 'Offline'}: showing the settings saved on this device. Saving needs a connection.</span>
          {online && (
            <button type="button" className="btn btn-sm" onClick={onReload}>
              Try Again
            </button>
          )}
        </div>
      )}
      {formError && (
        <p role="alert" className="alert alert-error">
          {formError}
        </p>
      )}
      <fieldset disabled={!editable || saving} className="space-y-6">
        {fieldGroups.map((group, groupIndex) => (
          <section key={group.title} className={cardClass} aria-labelledby={fieldId(`group-${groupIndex}`)}>
            <div className="card-body gap-4">
              <h2 id={fieldId(`group-${groupIndex}`)} className="card-title">
                {group.title}
              </h2>
              {group.fields.map((field) => (
                <div key={field.key}>
                  <label htmlFor={fieldId(field.key)} className={labelClass}>
                    {field.label}
                  </label>
                  <input
                    id={fieldId(field.key)}
                    type={field.type}
                    className="input w-full"
                    value={settings[field.key]}
                    onChange={(event) => {
                      setSettings((current) => setText(current, field.key, event.target.value));
                      clearError(field.key);
                    }}
                    {...errorProps(field.key)}
                  />
                  {field.hint && <p className="mt-1 text-xs text-base-content/80">{field.hint}</p>}
                  {errorText(field.key, field.label)}
                </div>
              ))}
            </div>
          </section>
        ))}

        <section className={cardClass} aria-labelledby={fieldId('social-heading')}>
          <div className="card-body gap-4">
            <h2 id={fieldId('social-heading')} className="card-title">
              Social links
            </h2>
            <p className="text-sm text-base-content/80">Leave a link empty to show its button without a target.</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {socialFields.map((field) => {
                const path = `socialLinks.${field.key}`;
                return (
                  <div key={field.key}>
                    <label htmlFor={fieldId(path)} className={labelClass}>
                      {field.label}
                    </label>
                    <input
                      id={fieldId(path)}
                      type="url"
                      className="input w-full"
                      value={settings.socialLinks[field.key]}
                      onChange={(event) => {
                        setSettings((current) => setSocial(current, field.key, event.target.value));
                        clearError(path);
                      }}
                      {...errorProps(path)}
                    />
                    {errorText(path, field.label)}
                  </div>
                );
              })}
            </div>
          </div>
        </section>

        <section className={cardClass} aria-labelledby={fieldId('stock-heading')}>
          <div className="card-body gap-4">
            <h2 id={fieldId('stock-heading')} className="card-title">
              Stock
            </h2>
            <div>
              <label htmlFor={fieldId('lowStockThreshold')} className={labelClass}>
                Low-stock threshold
              </label>
              <input
                id={fieldId('lowStockThreshold')}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                className="input w-full"
                value={Number.isNaN(settings.lowStockThreshold) ? '' : (settings.lowStockThreshold ?? 0)}
                onChange={(event) => {
                  const text = event.target.value;
                  setSettings((current) => ({ ...current, lowStockThreshold: text === '' ? Number.NaN : Number(text) }));
                  clearError('lowStockThreshold');
                }}
                {...errorProps('lowStockThreshold')}
              />
              <p className="mt-1 text-xs text-base-content/80">
                Staff are warned when fewer Wise stock accounts than this are available; 0 never warns. A service can set its own.
              </p>
              {errorText('lowStockThreshold', 'Low-stock threshold')}
            </div>
          </div>
        </section>

        <section className={cardClass} aria-labelledby={fieldId('wallets-heading')}>
          <div className="card-body gap-4">
            <h2 id={fieldId('wallets-heading')} className="card-title">
              Mobile-money wallets
            </h2>
            <p className="text-sm text-base-content/80">The receiving numbers shown on the proxy page.</p>
            {errors.wallets && <p className="text-sm text-error">Wallets {errors.wallets}</p>}
            <ul className="space-y-3">
              {settings.wallets.map((wallet, index) => {
                const namePath = `wallets.${index}.name`;
                const numberPath = `wallets.${index}.number`;
                return (
                  <li key={index} className="flex flex-wrap items-start gap-2">
                    <div className="min-w-40 flex-1">
                      <label htmlFor={fieldId(namePath)} className={labelClass}>
                        Wallet {index + 1} name
                      </label>
                      <input
                        id={fieldId(namePath)}
                        className="input w-full"
                        value={wallet.name}
                        onChange={(event) => {
                          setSettings((current) => setWallet(current, index, 'name', event.target.value));
                          clearError(namePath);
                        }}
                        {...errorProps(namePath)}
                      />
                      {errorText(namePath, 'Name')}
                    </div>
                    <div className="min-w-40 flex-1">
                      <label htmlFor={fieldId(numberPath)} className={labelClass}>
                        Wallet {index + 1} number
                      </label>
                      <input
                        id={fieldId(numberPath)}
                        className="input w-full"
                        inputMode="tel"
                        value={wallet.number}
                        onChange={(event) => {
                          setSettings((current) => setWallet(current, index, 'number', event.target.value));
                          clearError(numberPath);
                        }}
                        {...errorProps(numberPath)}
                      />
                      {errorText(numberPath, 'Number')}
                    </div>
                    <button
                      type="button"
                      className="btn btn-ghost btn-square mt-6 text-error"
                      aria-label={`Remove wallet ${index + 1}`}
                      onClick={() => {
                        setSettings((current) => removeWallet(current, index));
                        setErrors((current) => shiftWalletErrors(current, index));
                      }}
                    >
                      <span aria-hidden="true">✕</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <button
              type="button"
              className="btn btn-outline btn-sm w-fit"
              disabled={settings.wallets.length >= MAX_WALLETS}
              onClick={() => setSettings((current) => addWallet(current))}
            >
              <span aria-hidden="true">+</span> Add Wallet
            </button>
          </div>
        </section>

        <PaymentInstructionsEditor
          list={settings.paymentInstructions ?? []}
          onChange={(next, changedPath) => {
            setSettings((current) => ({ ...current, paymentInstructions: next }));
            if (changedPath === 'paymentInstructions') setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('paymentInstructions'))));
            else if (changedPath) clearError(changedPath);
          }}
          fieldId={fieldId}
          errorProps={errorProps}
          errorText={errorText}
          labelClass={labelClass}
          cardClass={cardClass}
        />
      </fieldset>

      <div className="flex justify-end gap-2">
        <button type="button" className="btn" disabled={saving} onClick={onReload}>
          Discard Changes
        </button>
        <button type="submit" className="btn btn-primary" disabled={!editable || saving}>
          {saving && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {saving ? 'Saving...' : 'Save Settings'}
        </button>
      </div>
    </form>
  );
}
