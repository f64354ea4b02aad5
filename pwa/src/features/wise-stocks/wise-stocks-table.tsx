import { Link } from 'react-router-dom';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { MaskedSecret } from '../../components/masked-secret.tsx';
import { CellLabel, stacked } from '../../components/stacked-table.tsx';
import { formatDateShort } from '../../lib/format.ts';
import { soldToName } from './stock-filters.ts';
import { stockDetailsPath } from './stock-paths.ts';
import { statusBadgeClass, statusLabel } from './stock-status.ts';
import { revealFor } from './reveal-password.ts';
import type { useStockUsers } from './use-stock-users.ts';

interface RowProps {
  stock: WiseStock;
  buyer: string | null | undefined;
  batchLabel: string | undefined;
  pending: boolean;
  canManage: boolean;
  deleting: boolean;
  onDelete: (stock: WiseStock) => void;
}

/** One stock: the account (with its password masked), who added it, who bought it, status, date, actions. */
function WiseStockRow({ stock, buyer, batchLabel, pending, canManage, deleting, onDelete }: RowProps) {
  return (
    <tr role="row" className={`${stacked.row} grid-cols-2 @xl:grid-cols-4`}>
      <td role="cell" className={`${stacked.cell} col-span-full`}>
        <div className="font-semibold">{stock.wiseName}</div>
        <div className="text-sm break-all text-base-content/80">{stock.wiseEmail}</div>
        <div className="text-sm">
          <span className="text-base-content/70">Password: </span>
          {stock.wisePasswordUnreadable ? (
            'cannot be read (wrong data key)'
          ) : (
            <MaskedSecret label={`password of ${stock.wiseName}`} value={stock.wisePassword} reveal={revealFor(stock)} />
          )}
        </div>
        {batchLabel !== undefined && <div className="text-xs text-base-content/70">Batch: {batchLabel}</div>}
      </td>
      <td role="cell" className={stacked.cell}>
        <CellLabel>Added By</CellLabel>
        <div>{stock.userName}</div>
        {stock.userEmail && <div className="text-sm break-all text-base-content/70">{stock.userEmail}</div>}
      </td>
      <td role="cell" className={stacked.cell}>
        <CellLabel>Sold To</CellLabel>
        {buyer ?? <span className="text-base-content/70">—</span>}
      </td>
      <td role="cell" className={stacked.cell}>
        <CellLabel>Status</CellLabel>
        <div className="flex flex-wrap items-center gap-1">
          <span className={statusBadgeClass(stock.status)}>{statusLabel(stock.status)}</span>
          {pending && <span className="badge badge-outline badge-sm">Pending sync</span>}
        </div>
      </td>
      <td role="cell" className={stacked.cell}>
        <CellLabel>Date Added</CellLabel>
        {formatDateShort(stock.createdAt)}
      </td>
      <td role="cell" className={`${stacked.cell} col-span-full`}>
        <div className="flex flex-wrap gap-2">
          <Link to={stockDetailsPath(stock.id)} className="btn btn-sm btn-outline" aria-label={`View Details of ${stock.wiseName}`}>
            View Details
          </Link>
          {canManage && (
            <button
              type="button"
              className="btn btn-sm btn-error"
              title="Delete Stock"
              aria-label={`Delete Stock ${stock.wiseName}`}
              onClick={() => onDelete(stock)}
              disabled={deleting}
            >
              Delete Stock
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

export interface WiseStocksTableProps {
  stocks: WiseStock[];
  usersById: ReturnType<typeof useStockUsers>['usersById'];
  batchLabels: ReadonlyMap<string, string>;
  pendingIds: ReadonlySet<string>;
  canManage: boolean;
  /** The id of the stock being deleted. */
  deleting: string | null;
  onDelete: (stock: WiseStock) => void;
}

/** The Wise stocks as a table, stacked into a card per stock on narrow screens. */
export function WiseStocksTable({ stocks, usersById, batchLabels, pendingIds, canManage, deleting, onDelete }: WiseStocksTableProps) {
  return (
    <div className={stacked.frame}>
      <table className={`table ${stacked.table}`} role="table">
        <caption className="sr-only">Wise stocks</caption>
        <thead className={stacked.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Wise Account
            </th>
            <th scope="col" role="columnheader">
              Added By
            </th>
            <th scope="col" role="columnheader">
              Sold To
            </th>
            <th scope="col" role="columnheader">
              Status
            </th>
            <th scope="col" role="columnheader">
              Date Added
            </th>
            <th scope="col" role="columnheader">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className={stacked.body} role="rowgroup">
          {stocks.map((stock) => (
            <WiseStockRow
              key={stock.id}
              stock={stock}
              buyer={soldToName(stock, usersById)}
              batchLabel={stock.batchId ? batchLabels.get(stock.batchId) : undefined}
              pending={pendingIds.has(stock.id)}
              canManage={canManage}
              deleting={deleting === stock.id}
              onDelete={onDelete}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
