import { Link } from 'react-router-dom';
import { openLowStock, useDeviceNotifications } from './notifications-data.ts';

/** The dashboard's warning while Wise stock is under a threshold (issue 16, item 6): from the synced notifications. */
export function LowStockBanner() {
  const warnings = openLowStock(useDeviceNotifications() ?? []);
  if (warnings.length === 0) return null;
  return (
    <div role="status" className="alert alert-warning mb-4 flex flex-wrap" data-testid="low-stock-banner">
      <div className="min-w-0 flex-1">
        {warnings.map((warning) => (
          <p key={warning.id}>
            <strong>{warning.title}.</strong> {warning.body}
          </p>
        ))}
      </div>
      <Link to="/dashboard/add-wise-stocks" className="btn btn-sm">
        Add Wise Stock
      </Link>
    </div>
  );
}
