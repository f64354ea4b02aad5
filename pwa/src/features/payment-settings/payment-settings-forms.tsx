import { useId, useState, type FormEvent } from 'react';
import { railFields, railNames, type PaymentRailView, type PaymentSettingsView } from '../../../../edge-api/src/contract/payments.ts';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';

const fieldLabels: Record<string, string> = {
  address: 'Shop TRON address (receives USDT)',
  contract: 'USDT contract (leave as is for Tether on mainnet)',
  apiKey: 'API key',
  secretKey: 'Secret key',
  appKey: 'App key',
  appSecret: 'App secret',
  username: 'Username',
  password: 'Password',
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Saving failed. Please try again.');

/** The payment window and the taka rate, for every rail. */
export function ShopPaymentForm({ view, onSaved }: { view: PaymentSettingsView; onSaved: (view: PaymentSettingsView) => void }) {
  const id = useId();
  const toast = useToast();
  const [minutes, setMinutes] = useState(String(view.expiryMinutes));
  const [rate, setRate] = useState(view.bdtPerUsd ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      onSaved(await unwrap(api.admin.payments.$put({ json: { expiryMinutes: Number(minutes), bdtPerUsd: rate.trim() || null } })));
      toast.success('Payment settings saved');
    } catch (error) {
      setProblem(errorText(error));
    }
  };
  return (
    <form onSubmit={(event) => void save(event)} className="card border border-base-300 bg-base-100" aria-label="Payment window and rate">
      <div className="card-body gap-3">
        <h2 className="card-title text-lg">Every rail</h2>
        <label htmlFor={`${id}-minutes`} className="text-sm font-medium">
          Minutes to pay before an unpaid order expires
        </label>
        <input id={`${id}-minutes`} className="input w-40" inputMode="numeric" value={minutes} onChange={(event) => setMinutes(event.target.value)} />
        <label htmlFor={`${id}-rate`} className="text-sm font-medium">
          Taka per US dollar (bKash amounts of dollar prices, USDT amounts of taka prices)
        </label>
        <input
          id={`${id}-rate`}
          className="input w-40"
          inputMode="decimal"
          placeholder="e.g. 121.50"
          value={rate}
          onChange={(event) => setRate(event.target.value)}
        />
        {problem && (
          <p role="alert" className="text-sm text-error">
            {problem}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-sm self-start">
          Save
        </button>
      </div>
    </form>
  );
}

/** A rail's settings, and its secrets: written here, never shown again (a set one is kept when left empty). */
function RailFields({
  id,
  rail,
  settings,
  secrets,
  onSettings: setSettings,
  onSecrets: setSecrets,
}: {
  id: string;
  rail: PaymentRailView;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  onSettings: (settings: Record<string, string>) => void;
  onSecrets: (secrets: Record<string, string>) => void;
}) {
  const fields = railFields[rail.rail];
  return (
    <>
      {fields.settings.map((name) => (
        <div key={name} className="flex flex-col gap-1">
          <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
            {fieldLabels[name] ?? name}
          </label>
          <input
            id={`${id}-${name}`}
            className="input w-full font-mono"
            value={settings[name] ?? ''}
            onChange={(event) => setSettings({ ...settings, [name]: event.target.value.trim() })}
          />
        </div>
      ))}
      {fields.secrets.map((name) => (
        <div key={name} className="flex flex-col gap-1">
          <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
            {fieldLabels[name] ?? name} {rail.secretsSet.includes(name) ? '(set: leave empty to keep it)' : ''}
          </label>
          <input
            id={`${id}-${name}`}
            type="password"
            autoComplete="off"
            className="input w-full"
            value={secrets[name] ?? ''}
            onChange={(event) => setSecrets({ ...secrets, [name]: event.target.value })}
          />
        </div>
      ))}
    </>
  );
}

/** One rail: on or off, its settings, and secrets that are written here and never shown again. */
export function RailCard({
  rail,
  webhookUrls,
  onSaved,
}: {
  rail: PaymentRailView;
  webhookUrls: PaymentSettingsView['webhookUrls'];
  onSaved: (view: PaymentSettingsView) => void;
}) {
  const id = useId();
  const toast = useToast();
  const [enabled, setEnabled] = useState(rail.enabled);
  const [settings, setSettings] = useState<Record<string, string>>(rail.settings);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const saved = await unwrap(api.admin.payments[':rail'].$put({ param: { rail: rail.rail }, json: { enabled, settings, secrets } }));
      setSecrets({});
      onSaved(saved);
      toast.success(`${railNames[rail.rail]} saved`);
    } catch (error) {
      setProblem(errorText(error));
    }
  };
  const callback = rail.rail === 'binance_pay' ? webhookUrls.binancePay : rail.rail === 'bkash' ? webhookUrls.bkash : null;
  return (
    <form onSubmit={(event) => void save(event)} className="card border border-base-300 bg-base-100" aria-label={railNames[rail.rail]}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title text-lg">{railNames[rail.rail]}</h2>
          <span className={`badge ${rail.enabled ? 'badge-success' : 'badge-ghost'}`}>{rail.enabled ? 'On' : 'Off'}</span>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="checkbox checkbox-sm" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
          Take payments with {railNames[rail.rail]}
        </label>
        <RailFields id={id} rail={rail} settings={settings} secrets={secrets} onSettings={setSettings} onSecrets={setSecrets} />
        {callback && (
          <p className="text-sm break-all">
            {rail.rail === 'bkash' ? 'Callback address bKash sends customers back to' : 'Webhook address to give Binance Pay'}:{' '}
            <span className="font-mono">{callback}</span>
          </p>
        )}
        {rail.missing.length > 0 && (
          <p className="text-sm">Still needed before switching on: {rail.missing.map((name) => fieldLabels[name] ?? name).join(', ')}.</p>
        )}
        {problem && (
          <p role="alert" className="text-sm text-error">
            {problem}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-sm self-start">
          Save {railNames[rail.rail]}
        </button>
      </div>
    </form>
  );
}
