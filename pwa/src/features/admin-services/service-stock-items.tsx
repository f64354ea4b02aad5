import { serviceStockLabel, type ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';

const statusLabel: Record<ServiceStock['status'], string> = { available: 'Available', sold: 'Sold', disabled: 'Withdrawn' };
const statusBadge: Record<ServiceStock['status'], string> = { available: 'badge-success', sold: 'badge-info', disabled: 'badge-ghost' };

interface ItemProps {
  item: ServiceStock;
  online: boolean;
  /** Admins change a password in place (decision 228) and withdraw; others only read. */
  canManage: boolean;
  busy: boolean;
  onWithdraw: (item: ServiceStock) => void;
  onChangePassword: (item: ServiceStock) => void;
}

/** One item: what may be shown of it (never its secret), its status, and what an admin may do with it. */
function ServiceStockItem({ item, online, canManage, busy, onWithdraw, onChangePassword }: ItemProps) {
  const label = serviceStockLabel(item);
  // A faulty item is off the shelf for good and no order holds it: nothing to rotate.
  const rotatable = canManage && item.kind !== 'lines' && !item.faultyAt;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
      <div className="min-w-0">
        <p className="font-medium break-all">{label}</p>
        <p className="text-base-content/80">
          {item.kind === 'lines' ? (
            'Lines hidden'
          ) : (
            <>
              Password <span aria-label="hidden">••••••••</span>
            </>
          )}
          {item.faultyAt ? ' · replaced as faulty' : ''}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`badge ${statusBadge[item.status]}`}>{statusLabel[item.status]}</span>
        {rotatable && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            aria-label={`Change password of ${label}`}
            disabled={!online || busy}
            onClick={() => onChangePassword(item)}
          >
            Change password
          </button>
        )}
        {canManage && item.status === 'available' && (
          <button type="button" className="btn btn-outline btn-sm" aria-label={`Withdraw ${label}`} disabled={!online || busy} onClick={() => onWithdraw(item)}>
            Withdraw
          </button>
        )}
      </div>
    </li>
  );
}

type ListProps = Omit<ItemProps, 'item'> & { items: ServiceStock[] | undefined };

/** The service's items as last synced, newest first. */
export function ServiceStockItems({ items, ...rest }: ListProps) {
  if (items === undefined) return <p className="text-sm">Loading stock...</p>;
  if (items.length === 0) return <p className="mb-4 text-sm">No stock for this service yet.</p>;
  return (
    <ul aria-label="Stock items" className="mb-4 max-h-72 divide-y divide-base-300 overflow-y-auto rounded-box border border-base-300">
      {items.map((item) => (
        <ServiceStockItem key={item.id} item={item} {...rest} />
      ))}
    </ul>
  );
}
