import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { settingsBody } from '../../../../edge-api/src/contract/settings-requests.ts';
import { withDefaultSettings, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
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
import { DisplayCurrenciesSection } from './display-currencies-editor.tsx';
import { PaymentInstructionsEditor } from './payment-instructions-editor.tsx';
import { useFieldKit } from './settings-field-kit.tsx';
import { OrderingSection } from './ordering-section.tsx';
import { SocialLinksSection, StockSection, TextFieldGroups, WalletsSection } from './settings-sections.tsx';

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
  if (!can('settings:manage'))
    return <NoAccess screen="Settings" message="You do not have permission to access this data. The shop's settings are changed by admins." />;
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

/** Checks the settings with the API's own rules, saves them and keeps the answer on the device. */
function useSaveSettings(settings: SiteSettings, setSettings: (saved: SiteSettings) => void) {
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldProblems>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

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

  return { formRef, errors, setErrors, formError, saving, submit };
}

function SettingsForm({ initial, fromDevice, onReload }: { initial: SiteSettings; fromDevice: boolean; onReload: () => void }) {
  const { online } = useSyncStatus();
  const [settings, setSettings] = useState(initial);
  const { formRef, errors, setErrors, formError, saving, submit } = useSaveSettings(settings, setSettings);
  const kit = useFieldKit(errors, setErrors);
  const editable = online && !fromDevice;
  const sections = { settings, setSettings, kit };

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
        <TextFieldGroups {...sections} />
        <SocialLinksSection {...sections} />
        <StockSection {...sections} />
        <OrderingSection {...sections} />
        <DisplayCurrenciesSection {...sections} errors={errors} setErrors={setErrors} />
        <WalletsSection {...sections} errors={errors} setErrors={setErrors} />
        <PaymentInstructionsEditor
          list={settings.paymentInstructions ?? []}
          onChange={(next, changedPath) => {
            setSettings((current) => ({ ...current, paymentInstructions: next }));
            if (changedPath === 'paymentInstructions')
              setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('paymentInstructions'))));
            else if (changedPath) kit.clearError(changedPath);
          }}
          fieldId={kit.fieldId}
          errorProps={kit.errorProps}
          errorText={kit.errorText}
          labelClass={kit.labelClass}
          cardClass={kit.cardClass}
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
