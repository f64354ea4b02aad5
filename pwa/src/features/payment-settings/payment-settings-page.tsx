import { useCallback, useEffect, useState } from 'react';
import type { PaymentSettingsView } from '../../../../edge-api/src/contract/payments.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { RailCard, ShopPaymentForm } from './payment-settings-forms.tsx';

/**
 * Settings → Payments (/dashboard/payments; admins): the rails that confirm payments by themselves, each
 * switched on with its settings and secrets (written here, never shown again), the payment window and the
 * taka rate (issue 26). Online only: the secrets never reach a device.
 */
export function PaymentSettingsPage() {
  const { can } = useAuthorization();
  if (!can('settings:manage')) return <NoAccess screen="Payments" message="You do not have permission to access this data. Payments are set up by admins." />;
  return <PaymentSettingsEditor />;
}

function PaymentSettingsEditor() {
  usePageTitle('Payments');
  const [view, setView] = useState<PaymentSettingsView | null | 'failed'>(null);
  const load = useCallback(() => {
    setView(null);
    unwrap(api.admin.payments.$get()).then(setView, () => setView('failed'));
  }, []);
  useEffect(load, [load]);
  if (view === null) return <LoadingState text="Loading payment settings..." />;
  if (view === 'failed') return <ErrorState title="Error!" message="Failed to load the payment settings. Payments are set up online." onRetry={load} />;
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-4">
      <header>
        <h1 className="text-2xl font-bold">Payments</h1>
        <p className="text-sm">
          Switch on the ways of paying that confirm themselves: an order paid on one is marked paid, and delivered when its service delivers by itself, with
          nobody checking. Every other payment method keeps the payment instructions and proofs of Settings. How to set up each one: docs/payments.md.
        </p>
      </header>
      <ShopPaymentForm view={view} onSaved={setView} />
      {view.rails.map((rail) => (
        <RailCard key={rail.rail} rail={rail} webhookUrls={view.webhookUrls} onSaved={setView} />
      ))}
    </div>
  );
}
