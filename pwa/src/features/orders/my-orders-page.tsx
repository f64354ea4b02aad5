import { useLiveQuery } from 'dexie-react-hooks';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { PaymentRail } from '../../../../edge-api/src/contract/payments.ts';
import type { SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { EmptyState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { VaultOffer } from '../../components/vault-offer.tsx';
import { usePendingIds, useSettings, useUserDb } from '../../db/hooks.ts';
import { newestOrdersOf } from '../../db/local-db.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useAuth, type SignedInUser } from '../../lib/auth.tsx';
import { useDisplayCurrency } from '../../lib/display-currency.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import { OrderCard } from './order-card.tsx';
import { useEnabledRails } from './rail-payment.tsx';
import { useSyncStatus } from '../../db/sync-status.ts';

/** Orders rendered at first and added by each "Show more": a history of thousands stays a short page. */
const ORDERS_PAGE = 30;
/**
 * The cards of the list's first paint: more than a phone or a tablet shows at once. The rest of the page
 * follows in a transition right after, so a cold start (offline above all) shows the newest orders
 * without first rendering thirty cards (issue 33 item 6).
 */
const FIRST_CARDS = 4;

/** How many of `count` cards to render: the first few, then all of them once those are on screen. */
function useFirstCardsThenAll(count: number): number {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (!all) startTransition(() => setAll(true));
  }, [all]);
  return all ? count : Math.min(count, FIRST_CARDS);
}

/** Opened from a notification (/my-orders#order-<id>, decision 067): the order is brought into view once it is rendered. */
function useScrollToOrder() {
  const { hash } = useLocation();
  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!hash.startsWith('#order-') || scrolledFor.current === hash) return;
    const target = document.getElementById(hash.slice(1));
    if (!target) return;
    scrolledFor.current = hash;
    target.scrollIntoView({ block: 'start' });
  });
}

export function MyOrdersPage() {
  usePageTitle('My Orders');
  const auth = useAuth();
  const location = useLocation();
  // A mailed sign-in link lands here (decision 177): wait while the auth client takes its session.
  if (auth.status === 'loading') return <LoadingState text="Signing you in..." />;
  if (auth.status !== 'signedIn') {
    return <Navigate to="/register" replace state={{ from: location, reason: 'Create an account, or sign in, to see your orders.' }} />;
  }
  return <MyOrders user={auth.user} />;
}

/**
 * The user's orders on this device and what the screen says about them. Staff devices also hold other
 * customers' orders: this screen shows only the user's own. Without a cursor this device has never pulled
 * the user's data, so "none here" does not mean "none yet". Only the page shown is read, newest first from
 * the [userId+createdAt] index; the total is an index count.
 */
function useMyOrders(userId: string, shown: number) {
  const db = useUserDb();
  const sync = useSyncStatus();
  const local = useLiveQuery(async () => {
    if (!db) return undefined;
    const [orders, total, cursor] = await Promise.all([
      newestOrdersOf(db, userId, shown),
      db.orders.where('userId').equals(userId).count(),
      db.meta.get('cursor'),
    ]);
    return { orders, total, pulled: cursor !== undefined };
  }, [db, userId, shown]);
  const orders = local?.orders;
  const total = local?.total ?? 0;

  const failedByOrder = useMemo(() => {
    const map = new Map<string, string>();
    for (const entry of sync.failed) {
      if (entry.target?.table === 'orders') map.set(entry.target.id, entry.error ?? 'The server did not accept this change.');
    }
    return map;
  }, [sync.failed]);

  const nothingLocal = orders !== undefined && total === 0;
  const firstSyncFailed = nothingLocal && !local?.pulled && !sync.syncing && (sync.lastError !== null || !sync.online);
  const loading = orders === undefined || (nothingLocal && !firstSyncFailed && (sync.syncing || !local?.pulled));
  return { counted: local !== undefined, orders, total, failedByOrder, firstSyncFailed, loading };
}

/** Refresh Orders: a sync now, and whether it failed. */
function useRefresh() {
  const [refreshing, setRefreshing] = useState(false);
  const [refreshFailed, setRefreshFailed] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    setRefreshFailed(false);
    requestSync()
      .catch(() => setRefreshFailed(true))
      .finally(() => setRefreshing(false));
  };
  return { refreshing, refreshFailed, refresh };
}

/** The orders shown, newest first, and Show More while there are older ones. */
function OrderList({
  orders,
  total,
  userId,
  settings,
  pendingIds,
  failedByOrder,
  rails,
  onShowMore,
}: {
  orders: Order[];
  total: number;
  userId: string;
  settings: SiteSettings;
  pendingIds: Set<string>;
  failedByOrder: Map<string, string>;
  rails: PaymentRail[];
  onShowMore: () => void;
}) {
  const currency = useDisplayCurrency(settings.displayCurrencies);
  const rendered = useFirstCardsThenAll(orders.length);
  useScrollToOrder();
  return (
    <>
      <ul className="space-y-6">
        {orders.slice(0, rendered).map((order) => (
          <li key={order.id} id={`order-${order.id}`}>
            <OrderCard
              order={order}
              providerChatUrl={settings.providerChatUrl}
              waitingToSync={pendingIds.has(order.id)}
              syncError={failedByOrder.get(order.id)}
              paymentInstructions={settings.paymentInstructions}
              userId={userId}
              rails={rails}
              currency={currency}
            />
          </li>
        ))}
      </ul>
      {total > orders.length && (
        <div className="mt-6 flex flex-col items-center gap-2">
          <p className="text-sm text-base-content/70">
            Showing the newest {orders.length} of {total} orders.
          </p>
          <button type="button" className="btn btn-outline" onClick={onShowMore}>
            Show {Math.min(ORDERS_PAGE, total - orders.length)} More Orders
          </button>
        </div>
      )}
    </>
  );
}

function MyOrders({ user }: { user: SignedInUser }) {
  const settings = useSettings();
  const pendingIds = usePendingIds();
  const rails = useEnabledRails();
  const [shown, setShown] = useState(ORDERS_PAGE);
  const { counted, orders, total, failedByOrder, firstSyncFailed, loading } = useMyOrders(user.id, shown);
  const { refreshing, refreshFailed, refresh } = useRefresh();

  const goBack = useGoBack('/');
  const showError = refreshFailed || firstSyncFailed;

  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold">My Orders</h1>
          <p className="mt-1">
            {counted ? `${total} ${total === 1 ? 'order' : 'orders'}` : 'Orders'} for <span className="font-semibold">{user.email}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline" onClick={goBack}>
            Back
          </button>
          <button type="button" className="btn btn-primary" onClick={refresh} disabled={refreshing} aria-busy={refreshing}>
            {refreshing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {refreshing ? 'Refreshing...' : 'Refresh Orders'}
          </button>
        </div>
      </header>

      {showError && (
        <div role="alert" className="alert alert-error mb-6">
          <div>
            <h2 className="font-bold">Error Loading Orders</h2>
            <p>Failed to load your orders. Please try again.</p>
          </div>
        </div>
      )}

      {orders?.some((order) => order.wisePassword) && <VaultOffer />}

      {loading ? (
        <LoadingState text="Loading your orders..." />
      ) : orders && orders.length > 0 ? (
        <OrderList
          orders={orders}
          total={total}
          userId={user.id}
          settings={settings}
          pendingIds={pendingIds}
          failedByOrder={failedByOrder}
          rails={rails}
          onShowMore={() => setShown((n) => n + ORDERS_PAGE)}
        />
      ) : firstSyncFailed ? null : (
        <EmptyState
          title="No Orders Yet"
          text="Your orders will show here once you place one."
          action={
            <Link to="/services" className="btn btn-primary">
              Browse Services
            </Link>
          }
        />
      )}
    </div>
  );
}
