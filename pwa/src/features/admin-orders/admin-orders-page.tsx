import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { usePendingIds } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { AuditModal } from './audit-modal.tsx';
import { CredentialsModal } from './credentials-modal.tsx';
import { DeclineReportModal } from './decline-report-modal.tsx';
import { OrderFigures } from './order-figures.tsx';
import { OrderFiltersBar } from './order-filters-bar.tsx';
import { changeFilters, filtersFromSearchParams, filtersToSearchParams, type OrderFilters } from './order-filters.ts';
import { OrderList } from './order-list.tsx';
import { OrdersHeader, OrdersPagination, RefusedChanges } from './orders-page-parts.tsx';
import { isOrderChange } from './outbox-change.ts';
import { useLocalOrders, useOrdersPage, useOrderStats } from './use-admin-orders.ts';
import { useOrderActions, useOrdersExport } from './use-order-actions.ts';

export const LOAD_FAILED_MESSAGE = 'Failed to load orders. Please try again.';

/** The filters, kept in the address so the back button and a shared link show the same list. */
function useOrderFilterParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const updateFilters = useCallback(
    (change: Partial<OrderFilters>) => {
      setSearchParams((current) => filtersToSearchParams(changeFilters(filtersFromSearchParams(current), change)), { replace: !('page' in change) });
    },
    [setSearchParams],
  );
  return { filters, updateFilters };
}

/** Which order each modal is open for, if any. */
function useOrderModals() {
  const [delivering, setDelivering] = useState<Order | null>(null);
  const [historyOf, setHistoryOf] = useState<Order | null>(null);
  const [replacing, setReplacing] = useState<Order | null>(null);
  const [declining, setDeclining] = useState<Order | null>(null);
  return { delivering, setDelivering, historyOf, setHistoryOf, replacing, setReplacing, declining, setDeclining };
}

function OrderModals({ modals, userId, online }: { modals: ReturnType<typeof useOrderModals>; userId: string; online: boolean }) {
  const { delivering, setDelivering, historyOf, setHistoryOf, replacing, setReplacing, declining, setDeclining } = modals;
  return (
    <>
      {delivering && <CredentialsModal order={delivering} userId={userId} online={online} onClose={() => setDelivering(null)} />}
      {replacing && <CredentialsModal order={replacing} userId={userId} online={online} replace onClose={() => setReplacing(null)} />}
      {declining && <DeclineReportModal order={declining} userId={userId} onClose={() => setDeclining(null)} />}
      {historyOf && <AuditModal order={historyOf} onClose={() => setHistoryOf(null)} />}
    </>
  );
}

function LocalNotice({ online }: { online: boolean }) {
  return (
    <p className="text-sm text-base-content/70">
      {online ? 'The server cannot be reached' : 'Offline'}: showing the orders saved on this device. Changes are queued and sync when the connection returns.
    </p>
  );
}

/** Admin Order Management (/dashboard): the figures (folded below the desktop width), filters, the order table and its modals. */
export function AdminOrdersPage() {
  usePageTitle('Admin Orders');
  const auth = useAuth();
  const userId = auth.status === 'signedIn' ? auth.user.id : '';
  const { can } = useAuthorization();
  const { online, pendingCount, failed } = useSyncStatus();
  const pendingIds = usePendingIds();
  const { filters, updateFilters } = useOrderFilterParams();
  const localOrders = useLocalOrders();
  const { page, source, loading, failed: loadFailed, reload } = useOrdersPage(filters, localOrders);
  const { stats, local: localStats } = useOrderStats(localOrders);
  const modals = useOrderModals();
  const { setDelivering, setHistoryOf, setReplacing, setDeclining } = modals;
  const actions = useOrderActions(userId, reload, setDelivering);
  const { exporting, exportCsv } = useOrdersExport(filters);

  return (
    <div className="space-y-6">
      <OrdersHeader
        online={online}
        pendingCount={pendingCount}
        refusedCount={failed.length}
        exporting={exporting}
        onRefresh={reload}
        onExport={() => void exportCsv()}
      />
      <RefusedChanges entries={failed.filter(isOrderChange)} userId={userId} />
      <OrderFigures stats={stats} local={localStats} />
      <OrderFiltersBar filters={filters} onChange={updateFilters} />
      {source === 'local' && <LocalNotice online={online} />}

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
                onOrderStatus={(order, status) => void actions.changeOrderStatus(order, status)}
                onPaymentStatus={(order, status) => void actions.changePaymentStatus(order, status)}
                onDeliver={setDelivering}
                onDelete={(order) => void actions.deleteOrder(order)}
                onHistory={setHistoryOf}
                onReplace={setReplacing}
                onDecline={setDeclining}
              />
            )}
            <OrdersPagination
              filters={filters}
              total={page.total ?? 0}
              totalIsLowerBound={page.totalIsLowerBound ?? false}
              nextCursor={page.nextCursor}
              prevCursor={page.prevCursor}
              byCursor={source === 'server'}
              onPage={(next, cursor) => updateFilters({ page: next, cursor })}
            />
          </>
        )}
      </section>

      <OrderModals modals={modals} userId={userId} online={online} />
    </div>
  );
}
