import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Order, OrderStatus, PaymentStatus } from '../../../../edge-api/src/contract/orders.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { forgetOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { dismissFailed, retryFailed, setOrderStatus, setPaymentStatus } from '../../db/mutations.ts';
import { serverOutcome, type ServerOutcome } from '../../db/server-outcome.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { capitalize } from '../../lib/format.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { saveBlobAs } from '../../lib/save-file.ts';
import { getAccessToken } from '../../lib/supabase.ts';
import { AuditModal } from './audit-modal.tsx';
import { deliversAutomatically, markPaidForAutoDelivery } from './auto-delivery.ts';
import { CredentialsModal } from './credentials-modal.tsx';
import { DeclineReportModal } from './decline-report-modal.tsx';
import { OrderFiltersBar } from './order-filters-bar.tsx';
import {
  changeFilters,
  describeTotal,
  exportCsvUrl,
  filtersFromSearchParams,
  filtersToSearchParams,
  hasNextPage,
  lastPage,
  type OrderFilters,
} from './order-filters.ts';
import { OrdersChart } from './orders-chart.tsx';
import { OrderList } from './order-list.tsx';
import { describeChange, isOrderChange } from './outbox-change.ts';
import { StatsCards } from './stats-cards.tsx';
import { useLocalOrders, useOrdersPage, useOrderStats } from './use-admin-orders.ts';

export const LOAD_FAILED_MESSAGE = 'Failed to load orders. Please try again.';

/** A change's toast: done, or kept on this device until it syncs. */
const changedMessage = (done: string, outcome: ServerOutcome) =>
  outcome === 'confirmed' ? `${done}.` : `${done} on this device; it syncs when the connection returns.`;

function filenameFrom(disposition: string | null): string {
  const match = disposition?.match(/filename="?([^";]+)"?/i);
  return match?.[1] ?? `orders-${new Date().toISOString().slice(0, 10)}.csv`;
}

/** Admin Order Management (/dashboard): stats, chart, filters, the order table and its modals. */
export function AdminOrdersPage() {
  usePageTitle('Admin Orders');
  const auth = useAuth();
  const userId = auth.status === 'signedIn' ? auth.user.id : '';
  const { can } = useAuthorization();
  const toast = useToast();
  const confirm = useConfirm();
  const db = useUserDb();
  const { online, pendingCount, failed } = useSyncStatus();
  const pendingIds = usePendingIds();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const localOrders = useLocalOrders();
  const { page, source, loading, failed: loadFailed, reload } = useOrdersPage(filters, localOrders);
  const { stats, local: localStats } = useOrderStats(localOrders);
  const [delivering, setDelivering] = useState<Order | null>(null);
  const [historyOf, setHistoryOf] = useState<Order | null>(null);
  const [replacing, setReplacing] = useState<Order | null>(null);
  const [declining, setDeclining] = useState<Order | null>(null);
  const [exporting, setExporting] = useState(false);

  const updateFilters = useCallback(
    (change: Partial<OrderFilters>) => {
      setSearchParams((current) => filtersToSearchParams(changeFilters(filtersFromSearchParams(current), change)), { replace: !('page' in change) });
    },
    [setSearchParams],
  );

  const changeOrderStatus = async (order: Order, orderStatus: OrderStatus) => {
    if (orderStatus === order.orderStatus) return;
    try {
      const handle = setOrderStatus(userId, { orderId: order.id, orderStatus, version: order.version, from: order.orderStatus }, { shown: { orders: [order] } });
      const outcome = await serverOutcome(handle.done);
      toast.success(changedMessage(`Order #${shortOrderId(order.id)} is now ${capitalize(orderStatus)}`, outcome));
    } catch (error) {
      console.error('Order status update failed', error);
      toast.error('Failed to update order status.');
    }
  };

  const changePaymentStatus = async (order: Order, paymentStatus: PaymentStatus) => {
    if (paymentStatus === order.paymentStatus) return;
    // Spec: 'paid' opens the credentials modal and nothing is saved until Approve & Deliver.
    if (paymentStatus === 'paid') {
      // A service that delivers by itself (decision 061): 'paid' is saved, and the server delivers from stock.
      if (db && (await deliversAutomatically(order))) {
        try {
          const told = await markPaidForAutoDelivery(userId, db, order);
          if (told.ok) toast.success(told.text);
          else toast.error(told.text, 8000);
        } catch (error) {
          console.error('Payment status update failed', error);
          toast.error('Failed to update payment status.');
        }
        return;
      }
      setDelivering(order);
      return;
    }
    try {
      const handle = setPaymentStatus(userId, { orderId: order.id, paymentStatus, version: order.version, from: order.paymentStatus }, { shown: { orders: [order] } });
      const outcome = await serverOutcome(handle.done);
      toast.success(changedMessage(`Payment of order #${shortOrderId(order.id)} is now ${capitalize(paymentStatus)}`, outcome));
    } catch (error) {
      console.error('Payment status update failed', error);
      toast.error('Failed to update payment status.');
    }
  };

  const deleteOrder = async (order: Order) => {
    const confirmed = await confirm({
      title: 'Delete order?',
      subject: [`Order #${shortOrderId(order.id)}: ${order.title}`, `${order.userName || 'Unknown User'} (${order.userEmail}), $${order.price}`],
      text: 'Are you sure you want to delete this order?',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await unwrap(api.admin.orders[':id'].$delete({ param: { id: order.id } }));
      if (db) await forgetOnDevice(db, { orders: [order.id] });
      toast.success(`Order #${shortOrderId(order.id)} deleted.`);
      reload();
    } catch (error) {
      console.error('Order delete failed', error);
      toast.error('Failed to delete order.');
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const token = await getAccessToken();
      const response = await fetch(exportCsvUrl(filters), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new Error(`Export failed (${response.status})`);
      saveBlobAs(await response.blob(), filenameFrom(response.headers.get('content-disposition')));
    } catch (error) {
      console.error('Order export failed', error);
      toast.error('Failed to export orders.');
    } finally {
      setExporting(false);
    }
  };

  const orderFailures = failed.filter(isOrderChange);
  const total = page?.total ?? 0;
  const firstShown = total === 0 ? 0 : (filters.page - 1) * filters.limit + 1;
  const lastShown = Math.min(total, filters.page * filters.limit);

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Admin Order Management</h1>
          <p className="text-base-content/70">Process payments, deliver credentials and track every order.</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {!online && <span className="badge badge-warning">Offline</span>}
          <p role="status" aria-live="polite" className="text-sm">
            {syncSummary(pendingCount, failed.length)}
          </p>
          <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={!online}>
            Refresh
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void exportCsv()} disabled={!online || exporting}>
            {exporting && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Export
          </button>
        </div>
      </header>

      {orderFailures.length > 0 && (
        <section role="alert" aria-labelledby="failed-changes-heading" className="alert alert-error flex-col items-stretch">
          <h2 id="failed-changes-heading" className="font-semibold">
            The server refused {orderFailures.length === 1 ? 'a change' : `${orderFailures.length} changes`} made on this device
          </h2>
          <ul className="space-y-2">
            {orderFailures.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 rounded-box bg-base-100 p-2 text-base-content">
                <span>
                  <strong>{describeChange(entry)}</strong>: {entry.error ?? 'refused by the server'}
                </span>
                <span className="flex gap-2">
                  <button type="button" className="btn btn-sm" onClick={() => void retryFailed(userId, entry.id)}>
                    Retry
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => void dismissFailed(userId, entry.id)}>
                    Dismiss
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <StatsCards stats={stats} local={localStats} />
      {stats && <OrdersChart daily={stats.daily} />}

      <OrderFiltersBar filters={filters} onChange={updateFilters} />

      {source === 'local' && (
        <p className="text-sm text-base-content/70">
          {online ? 'The server cannot be reached' : 'Offline'}: showing the orders saved on this device. Changes are queued and sync when the connection returns.
        </p>
      )}

      <section aria-labelledby="orders-heading" aria-busy={loading}>
        <h2 id="orders-heading" className="sr-only">
          Orders
        </h2>
        {loadFailed && !page ? (
          <ErrorState title="Error" message={LOAD_FAILED_MESSAGE} onRetry={reload} />
        ) : !page ? (
          <LoadingState text="Loading orders..." />
        ) : (
          <>
            {loadFailed && (
              <p role="alert" className="alert alert-error mb-3">
                {LOAD_FAILED_MESSAGE}
              </p>
            )}
            {page.orders.length === 0 ? (
              <EmptyState title="No orders found" text="Try adjusting your filters or search terms." />
            ) : (
              <OrderList
                orders={page.orders}
                pendingIds={pendingIds}
                canDelete={can('orders:delete')}
                canSeeHistory={can('audit:read')}
                online={online}
                onOrderStatus={(order, status) => void changeOrderStatus(order, status)}
                onPaymentStatus={(order, status) => void changePaymentStatus(order, status)}
                onDeliver={setDelivering}
                onDelete={(order) => void deleteOrder(order)}
                onHistory={setHistoryOf}
                onReplace={setReplacing}
                onDecline={setDeclining}
              />
            )}
            <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-base-content/70">
                Showing {firstShown}–{lastShown} of {describeTotal(total, page?.totalIsLowerBound ?? false)} orders
              </p>
              <div className="join">
                <button
                  type="button"
                  className="btn join-item btn-sm"
                  disabled={filters.page <= 1}
                  onClick={() => updateFilters({ page: filters.page - 1 })}
                >
                  Previous
                </button>
                <span className="join-item flex items-center border border-base-300 px-3 text-sm" aria-current="page">
                  Page {filters.page}
                  {page?.totalIsLowerBound ? '' : ` of ${lastPage(total, filters.limit)}`}
                </span>
                <button
                  type="button"
                  className="btn join-item btn-sm"
                  disabled={!hasNextPage(filters.page, filters.limit, total)}
                  onClick={() => updateFilters({ page: filters.page + 1 })}
                >
                  Next
                </button>
              </div>
            </nav>
          </>
        )}
      </section>

      {delivering && <CredentialsModal order={delivering} userId={userId} online={online} onClose={() => setDelivering(null)} />}
      {replacing && <CredentialsModal order={replacing} userId={userId} online={online} replace onClose={() => setReplacing(null)} />}
      {declining && <DeclineReportModal order={declining} userId={userId} onClose={() => setDeclining(null)} />}
      {historyOf && <AuditModal order={historyOf} onClose={() => setHistoryOf(null)} />}
    </div>
  );
}

/** The header's sync line: never "synced" while a change waits or was refused. */
function syncSummary(pending: number, refused: number): string {
  const count = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;
  const parts = [pending > 0 ? `${count(pending)} waiting to sync` : '', refused > 0 ? `${count(refused)} refused` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'All changes synced';
}
