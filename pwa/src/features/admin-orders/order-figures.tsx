import { useState } from 'react';
import type { OrderStats } from '../../../../edge-api/src/contract/orders.ts';
import { WIDE_SCREEN_QUERY } from '../../components/use-dismiss.ts';
import { OrdersChart } from './orders-chart.tsx';
import { StatsCards } from './stats-cards.tsx';

/** Open at first on a desktop; folded on a phone or tablet, where the order list is the work (issue 33, item 5). */
function openAtFirst(): boolean {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function' || window.matchMedia(WIDE_SCREEN_QUERY).matches;
}

/**
 * The order figures (five cards and the 30-day chart) in a section that folds: below the desktop
 * breakpoint it starts folded, its summary line giving the two counts staff act on, so the order list
 * starts within the first screen of a tablet (decision 199).
 */
export function OrderFigures({ stats, local }: { stats: OrderStats | undefined; local: boolean }) {
  const [open, setOpen] = useState(openAtFirst);
  const counts = stats ? `${stats.totalOrders.toLocaleString('en-US')} orders · ${stats.pendingPayments.toLocaleString('en-US')} pending payments` : 'Loading…';
  return (
    <details className="rounded-box bg-base-200/60" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 rounded-box px-4 py-2 font-semibold">
        Figures <span className="font-normal text-base-content/80">{counts}</span>
      </summary>
      <div className="space-y-6 p-2 pt-0 sm:p-4 sm:pt-0">
        <StatsCards stats={stats} local={local} />
        {stats && <OrdersChart daily={stats.daily} />}
      </div>
    </details>
  );
}
