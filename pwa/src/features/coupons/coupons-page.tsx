import { useCallback, useEffect, useState } from 'react';
import type { Coupon } from '../../../../edge-api/src/contract/coupons.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { CouponForm } from './coupon-form.tsx';

/** Coupons (/dashboard/coupons; admins, online): the shop's codes, their uses, and a form for a new one. */
export function CouponsPage() {
  const { can } = useAuthorization();
  if (!can('settings:manage')) return <NoAccess screen="Coupons" message="You do not have permission to access this data. Coupons are made by admins." />;
  return <CouponsEditor />;
}

type Loaded = { coupons: Coupon[]; services: Service[] } | null | 'failed';

/** One coupon: what it takes off, its limits and uses, with Edit and Switch On/Off. */
function CouponSummary({ coupon, titleOf, onToggle, onEdit }: { coupon: Coupon; titleOf: (id: string) => string; onToggle: () => void; onEdit: () => void }) {
  return (
    <div className="flex flex-row flex-wrap items-center justify-between gap-3">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="text-base font-bold">
          {coupon.code} <span className={`badge ${coupon.enabled ? 'badge-success' : 'badge-ghost'}`}>{coupon.enabled ? 'On' : 'Off'}</span>
        </p>
        <p>
          {coupon.kind === 'percent' ? `${Number(coupon.amount)}% off` : `$${coupon.amount} off`}
          {coupon.minTotal && ` · orders of $${coupon.minTotal} or more`}
          {coupon.firstOrderOnly && ' · first order only'}
        </p>
        <p>
          Used {coupon.uses}
          {coupon.maxUses !== null && ` of ${coupon.maxUses}`} times
          {coupon.maxUsesPerCustomer !== null && ` · ${coupon.maxUsesPerCustomer} per customer`}
          {coupon.endsAt && ` · ends ${new Date(coupon.endsAt).toLocaleString()}`}
        </p>
        {coupon.serviceIds.length > 0 && <p>For: {coupon.serviceIds.map(titleOf).join(', ')}</p>}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline min-h-11" onClick={onEdit} aria-label={`Edit ${coupon.code}`}>
          Edit
        </button>
        <button
          type="button"
          className="btn btn-outline min-h-11"
          onClick={onToggle}
          aria-label={`${coupon.enabled ? 'Switch off' : 'Switch on'} ${coupon.code}`}
        >
          {coupon.enabled ? 'Switch Off' : 'Switch On'}
        </button>
      </div>
    </div>
  );
}

function CouponsEditor() {
  usePageTitle('Coupons');
  const toast = useToast();
  const [view, setView] = useState<Loaded>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const load = useCallback(() => {
    setView(null);
    Promise.all([unwrap(api.admin.coupons.$get()), unwrap(api.services.$get())]).then(
      ([answer, services]) => setView({ coupons: answer.coupons, services }),
      () => setView('failed'),
    );
  }, []);
  useEffect(load, [load]);
  if (view === null) return <LoadingState text="Loading coupons..." />;
  if (view === 'failed') return <ErrorState title="Error!" message="Failed to load the coupons. Coupons are managed online." onRetry={load} />;

  // A changed coupon stays where it is; a new one comes first.
  const replace = (coupon: Coupon) =>
    setView({
      ...view,
      coupons: view.coupons.some((c) => c.id === coupon.id) ? view.coupons.map((c) => (c.id === coupon.id ? coupon : c)) : [coupon, ...view.coupons],
    });
  const toggle = async (coupon: Coupon) => {
    try {
      const { id, uses: _uses, createdAt: _created, updatedAt: _updated, ...fields } = coupon;
      replace(await unwrap(api.admin.coupons[':id'].$put({ param: { id }, json: { ...fields, enabled: !coupon.enabled } })));
      toast.success(coupon.enabled ? `${coupon.code} switched off` : `${coupon.code} switched on`, 2000);
    } catch {
      toast.error(`${coupon.code} could not be changed. Try again.`);
    }
  };
  const titleOf = (id: string) => view.services.find((s) => s.id === id)?.title ?? 'a removed service';

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-4">
      <header>
        <h1 className="text-2xl font-bold">Coupons</h1>
        <p className="text-sm">Codes customers type when they confirm an order. The server prices every order; each use is counted once.</p>
      </header>
      <CouponForm
        services={view.services}
        onSaved={(coupon) => {
          replace(coupon);
          toast.success(`Coupon ${coupon.code} added`, 2000);
        }}
      />
      <section aria-labelledby="coupon-list-title" className="space-y-2">
        <h2 id="coupon-list-title" className="text-lg font-bold">
          All Coupons
        </h2>
        {view.coupons.length === 0 && <p>No coupons yet.</p>}
        <ul className="space-y-2">
          {view.coupons.map((coupon) => (
            <li key={coupon.id} className="card border border-base-300 bg-base-100 p-3">
              {editing === coupon.id ? (
                <CouponForm
                  services={view.services}
                  editing={coupon}
                  onCancel={() => setEditing(null)}
                  onSaved={(saved) => {
                    replace(saved);
                    setEditing(null);
                    toast.success(`Coupon ${saved.code} saved`, 2000);
                  }}
                />
              ) : (
                <CouponSummary coupon={coupon} titleOf={titleOf} onToggle={() => void toggle(coupon)} onEdit={() => setEditing(coupon.id)} />
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
