import { Link } from 'react-router-dom';
import { lowStockTarget, useStockAccess } from './low-stock-target.ts';
import { openLowStock, useDeviceNotifications } from './notifications-data.ts';

/**
 * The dashboard's warning while stock is under a threshold (issue 16, item 6): from the synced
 * notifications. Each warning has its own button to the stock that ran low (a service's own stock, or the
 * Wise pool), and only for staff who can add to it (decision 197): a moderator reads the warning only.
 */
export function LowStockBanner() {
  const warnings = openLowStock(useDeviceNotifications() ?? []);
  const stock = useStockAccess();
  if (warnings.length === 0) return null;
  // Two warnings about the same stock (the shop-wide one and a service drawing on the Wise pool) share one button.
  const offered = new Set<string>();
  return (
    <div role="status" className="alert alert-warning mb-4 flex flex-col items-stretch" data-testid="low-stock-banner">
      <ul className="space-y-2">
        {warnings.map((warning) => {
          const found = lowStockTarget(warning, stock);
          const target = found && !offered.has(found.to) ? found : null;
          if (target) offered.add(target.to);
          return (
            <li key={warning.id} className="flex flex-wrap items-center justify-between gap-2">
              <p className="min-w-0 flex-1">
                <strong>{warning.title}.</strong> {warning.body}
              </p>
              {target && (
                <Link to={target.to} className="btn btn-sm">
                  {target.label}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
