import { useCallback, useEffect, useState } from 'react';
import type { Coupon } from '../../../../edge-api/src/contract/coupons.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { useKeysetPages, type KeysetPages } from '../../lib/list-pages.ts';
import { CouponForm } from './coupon-form.tsx';

/** Coupons (/dashboard/coupons; admins, online): the shop's codes, their uses, and a form for a new one. */
export function CouponsPage() {
  const { can } = useAuthorization();
  if (!can('settings:manage')) return <NoAccess screen="Coupons" message="You do not have permission to access this data. Coupons are made by admins." />;
  return <CouponsEditor />;
}

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

/** The coupons a page at a time, newest first, with "Load more" (decision 242); a changed one stays where it is, a new one comes first. */
function CouponList({ pages, services, onToggle }: { pages: KeysetPages<Coupon>; services: Service[]; onToggle: (coupon: Coupon) => void }) {
  const toast = useToast();
  const [editing, setEditing] = useState<string | null>(null);
  const coupons = pages.items ?? [];
  const titleOf = (id: string) => services.find((s) => s.id === id)?.title ?? 'a removed service';
  return (
    <section aria-labelledby="coupon-list-title" className="space-y-2">
      <h2 id="coupon-list-title" className="text-lg font-bold">
        All Coupons
      </h2>
      {coupons.length === 0 && <p>No coupons yet.</p>}
      <ul className="space-y-2">
        {coupons.map((coupon) => (
          <li key={coupon.id} className="card border border-base-300 bg-base-100 p-3">
            {editing === coupon.id ? (
              <CouponForm
                services={services}
                editing={coupon}
                onCancel={() => setEditing(null)}
                onSaved={(saved) => {
                  pages.put(saved);
                  setEditing(null);
                  toast.success(`Coupon ${saved.code} saved`, 2000);
                }}
              />
            ) : (
              <CouponSummary coupon={coupon} titleOf={titleOf} onToggle={() => onToggle(coupon)} onEdit={() => setEditing(coupon.id)} />
            )}
          </li>
        ))}
      </ul>
      {pages.failed && coupons.length > 0 && <p role="alert">More coupons could not be loaded. Try again.</p>}
      <LoadMore hasMore={pages.hasMore} loading={pages.loading} onLoadMore={pages.loadMore} what="coupons" />
    </section>
  );
}

function CouponsEditor() {
  usePageTitle('Coupons');
  const toast = useToast();
  const [services, setServices] = useState<Service[] | null | 'failed'>(null);
  const pages = useKeysetPages<Coupon, { coupons: Coupon[] }>(
    (args) => api.admin.coupons.$get(args),
    true,
    (body) => body.coupons,
  );
  const { reload } = pages;
  const loadServices = useCallback(() => {
    setServices(null);
    unwrap(api.services.$get()).then(setServices, () => setServices('failed'));
  }, []);
  useEffect(loadServices, [loadServices]);
  const retry = () => {
    loadServices();
    void reload();
  };
  if (services === 'failed' || (pages.failed && pages.items === null))
    return <ErrorState title="Error!" message="Failed to load the coupons. Coupons are managed online." onRetry={retry} />;
  if (services === null || pages.items === null) return <LoadingState text="Loading coupons..." />;

  const toggle = async (coupon: Coupon) => {
    try {
      const { id, uses: _uses, createdAt: _created, updatedAt: _updated, ...fields } = coupon;
      pages.put(await unwrap(api.admin.coupons[':id'].$put({ param: { id }, json: { ...fields, enabled: !coupon.enabled } })));
      toast.success(coupon.enabled ? `${coupon.code} switched off` : `${coupon.code} switched on`, 2000);
    } catch {
      toast.error(`${coupon.code} could not be changed. Try again.`);
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-4">
      <header>
        <h1 className="text-2xl font-bold">Coupons</h1>
        <p className="text-sm">Codes customers type when they confirm an order. The server prices every order; each use is counted once.</p>
      </header>
      <CouponForm
        services={services}
        onSaved={(coupon) => {
          pages.put(coupon);
          toast.success(`Coupon ${coupon.code} added`, 2000);
        }}
      />
      <CouponList pages={pages} services={services} onToggle={(coupon) => void toggle(coupon)} />
    </div>
  );
}
