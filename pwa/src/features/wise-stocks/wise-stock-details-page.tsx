import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { isSealed } from '../../db/vault-session.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { formatDateLong } from '../../lib/format.ts';
import { soldToName } from './stock-filters.ts';
import { StockImagesPanel } from './stock-images-panel.tsx';
import { STOCKS_PATH } from './stock-paths.ts';
import { statusBadgeClass, statusLabel } from './stock-status.ts';
import { UpdateStatusModal } from './update-status-modal.tsx';
import { ChangePasswordModal } from './change-password-modal.tsx';
import { useStockUsers } from './use-stock-users.ts';
import { MaskedSecret } from '../../components/masked-secret.tsx';
import { revealFor } from './reveal-password.ts';

export const DETAILS_FAILED_MESSAGE = 'Failed to fetch stock details';

type ServerCopy = 'offline' | 'loading' | 'found' | 'missing' | 'failed';

/**
 * The stock as this device has it, refreshed from GET /api/wise-stocks/{id} when online (which also brings
 * image links that have not expired). `local` is undefined while loading and null when the device has none.
 */
function useStock(db: ReturnType<typeof useUserDb>, id: string, online: boolean) {
  const local = useLiveQuery(async () => {
    if (!db) return { stock: null, synced: false };
    const [stock, cursor] = await Promise.all([db.wiseStocks.get(id), db.meta.get('cursor')]);
    return { stock: stock ?? null, synced: cursor !== undefined };
  }, [db, id]);
  const [server, setServer] = useState<{ id: string; state: ServerCopy }>({ id, state: online ? 'loading' : 'offline' });

  useEffect(() => {
    if (!online) {
      setServer({ id, state: 'offline' });
      return;
    }
    let cancelled = false;
    setServer({ id, state: 'loading' });
    unwrap(api['wise-stocks'][':id'].$get({ param: { id } }))
      .then(async (stock) => {
        if (db) await keepOnDevice(db, { stocks: [stock] });
        if (!cancelled) setServer({ id, state: 'found' });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // 400: not a stock id at all.
        const missing = hasCode(error, 'not_found', 'bad_request');
        if (!missing) console.warn(DETAILS_FAILED_MESSAGE, error);
        setServer({ id, state: missing ? 'missing' : 'failed' });
      });
    return () => {
      cancelled = true;
    };
  }, [db, id, online]);

  return { local, server: server.id === id ? server.state : 'loading' };
}

/** Wise Stock Details (/dashboard/wise-stocks/:id). */
export function WiseStockDetailsPage() {
  const { id = '' } = useParams();
  const canManage = useAuthorization().can('stocks:manage');
  const auth = useAuth();
  const navigate = useNavigate();
  const toast = useToast();
  const db = useUserDb();
  const pendingIds = usePendingIds();
  const { online } = useSyncStatus();
  const { local, server } = useStock(db, id, online);
  const { users, usersById } = useStockUsers(online, (message) => toast.error(message));
  const [editingStatus, setEditingStatus] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);

  const stock = local?.stock ?? null;
  usePageTitle(stock ? `${stock.wiseName} · Wise Stock` : server === 'missing' ? 'Stock not found' : 'Wise Stock Details');
  // Nothing to show and no way to get it: say so and go back to the list (spec).
  const unreachable = local !== undefined && !stock && (server === 'failed' || (server === 'offline' && !local.synced));

  useEffect(() => {
    if (!unreachable) return;
    toast.error(DETAILS_FAILED_MESSAGE);
    navigate(STOCKS_PATH, { replace: true });
  }, [unreachable, toast, navigate]);

  if (server === 'missing' || (local && !stock && server === 'offline' && local.synced)) {
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 p-8 text-center">
        <h1 className="text-2xl font-bold">Stock not found</h1>
        <p className="text-base-content/80">This Wise stock does not exist or has been deleted.</p>
        <Link to={STOCKS_PATH} className="btn btn-primary">
          Back to Stocks
        </Link>
      </div>
    );
  }
  if (!stock) return <LoadingState text="Loading stock details..." />;

  const buyer = soldToName(stock, usersById);
  return (
    <StockDetails
      stock={stock}
      buyer={buyer}
      pending={pendingIds.has(stock.id)}
      canManage={canManage}
      onUpdateStatus={() => setEditingStatus(true)}
      onChangePassword={() => setChangingPassword(true)}
      modal={
        editingStatus && auth.status === 'signedIn' ? (
          <UpdateStatusModal stock={stock} users={users} userId={auth.user.id} onClose={() => setEditingStatus(false)} />
        ) : changingPassword ? (
          <ChangePasswordModal stock={stock} buyer={buyer} online={online} onClose={() => setChangingPassword(false)} />
        ) : null
      }
    />
  );
}

interface StockDetailsProps {
  stock: WiseStock;
  buyer: string | null;
  pending: boolean;
  canManage: boolean;
  onUpdateStatus: () => void;
  onChangePassword: () => void;
  modal: ReactNode;
}

function StockDetails({ stock, buyer, pending, canManage, onUpdateStatus, onChangePassword, modal }: StockDetailsProps) {
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-base-content/70">Wise Stock Details</p>
          <h1 className="text-2xl font-bold">{stock.wiseName}</h1>
        </div>
        <Link to={STOCKS_PATH} className="btn btn-ghost">
          <span aria-hidden="true">←</span> Back to Stocks
        </Link>
      </header>

      {/* On a phone the actions come right after the account, before the images; beside both on a wide screen. */}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <AccountInformation stock={stock} buyer={buyer} pending={pending} />
        </div>
        <div className="space-y-6 lg:col-start-3 lg:row-span-2 lg:row-start-1">
          <QuickActions canManage={canManage} onUpdateStatus={onUpdateStatus} onChangePassword={onChangePassword} />
          <AddedBy stock={stock} />
        </div>
        <div className="lg:col-span-2">
          <StockImagesPanel stock={stock} canManage={canManage} />
        </div>
      </div>
      {modal}
    </div>
  );
}

function PasswordValue({ stock }: { stock: WiseStock }) {
  if (stock.wisePasswordUnreadable) return 'cannot be read (wrong data key)';
  if (stock.wisePasswordMasked) return <MaskedSecret label={`password of ${stock.wiseName}`} reveal={revealFor(stock)} />;
  if (isSealed(stock.wisePassword)) return <MaskedSecret label={`password of ${stock.wiseName}`} value={stock.wisePassword} />;
  return stock.wisePassword;
}

function AccountInformation({ stock, buyer, pending }: Pick<StockDetailsProps, 'stock' | 'buyer' | 'pending'>) {
  const id = useId();
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={id}>
      <div className="card-body">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={id} className="card-title">
            Account Information
          </h2>
          <span className="badge badge-secondary">{stock.serviceName}</span>
        </div>
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-base-content/70">Account Holder Name</dt>
            <dd className="font-medium">{stock.wiseName}</dd>
          </div>
          <div>
            <dt className="text-sm text-base-content/70">Email</dt>
            <dd className="font-medium break-all">{stock.wiseEmail}</dd>
          </div>
          <div>
            <dt className="text-sm text-base-content/70">Password</dt>
            <dd className="font-mono font-medium break-all">
              <PasswordValue stock={stock} />
            </dd>
          </div>
          <div>
            <dt className="text-sm text-base-content/70">Status</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className={statusBadgeClass(stock.status)}>{statusLabel(stock.status)}</span>
              {buyer !== null && <span>(to {buyer})</span>}
              {stock.faultyAt && <span className="badge badge-error badge-sm">Faulty: never sold again</span>}
              {pending && <span className="badge badge-outline badge-sm">Pending sync</span>}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-base-content/70">Date Added</dt>
            <dd className="font-medium">{formatDateLong(stock.createdAt)}</dd>
          </div>
          {stock.notes.trim() !== '' && (
            <div className="sm:col-span-2">
              <dt className="text-sm text-base-content/70">Notes</dt>
              <dd className="whitespace-pre-wrap">{stock.notes}</dd>
            </div>
          )}
        </dl>
      </div>
    </section>
  );
}

function QuickActions({ canManage, onUpdateStatus, onChangePassword }: Pick<StockDetailsProps, 'canManage' | 'onUpdateStatus' | 'onChangePassword'>) {
  const id = useId();
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={id}>
      <div className="card-body">
        <h2 id={id} className="card-title">
          Quick Actions
        </h2>
        <div className="flex flex-col gap-2">
          <Link to={STOCKS_PATH} className="btn btn-outline">
            Back to Stocks
          </Link>
          {canManage && (
            <button type="button" className="btn btn-primary" onClick={onUpdateStatus}>
              Update Status
            </button>
          )}
          {canManage && (
            <button type="button" className="btn btn-outline" onClick={onChangePassword}>
              Change Password
            </button>
          )}
        </div>
      </div>
    </section>
  );
}

function AddedBy({ stock }: { stock: WiseStock }) {
  const id = useId();
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={id}>
      <div className="card-body">
        <h2 id={id} className="card-title">
          Added By
        </h2>
        <p className="font-medium">{stock.userName}</p>
        {stock.userEmail && <p className="text-sm break-all text-base-content/80">{stock.userEmail}</p>}
      </div>
    </section>
  );
}
