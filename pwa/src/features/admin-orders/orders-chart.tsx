import { useId } from 'react';
import type { OrderStats } from '../../../../edge-api/src/contract/orders.ts';
import { formatRevenue } from './order-stats.ts';

type Day = OrderStats['daily'][number];

const WIDTH = 600;
const HEIGHT = 180;
const PAD = { left: 34, right: 58, top: 12, bottom: 24 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Bars and line positions in the SVG's coordinates; a flat series sits on the baseline. */
export function chartGeometry(daily: readonly Day[]) {
  const maxOrders = Math.max(1, ...daily.map((day) => day.orders));
  const maxRevenue = Math.max(0, ...daily.map((day) => day.revenue));
  const slot = daily.length > 0 ? PLOT_W / daily.length : PLOT_W;
  const barWidth = Math.max(2, slot * 0.6);
  const bars = daily.map((day, index) => {
    const height = (day.orders / maxOrders) * PLOT_H;
    return { x: PAD.left + index * slot + (slot - barWidth) / 2, y: PAD.top + PLOT_H - height, width: barWidth, height };
  });
  const points = daily.map((day, index) => {
    const x = PAD.left + index * slot + slot / 2;
    const y = PAD.top + PLOT_H - (maxRevenue > 0 ? (day.revenue / maxRevenue) * PLOT_H : 0);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return { maxOrders, maxRevenue, bars, line: points.join(' ') };
}

/** Orders (bars) and revenue (line) per day over the last 30 days: plain SVG, with its data as a table. */
export function OrdersChart({ daily }: { daily: readonly Day[] }) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const { maxOrders, maxRevenue, bars, line } = chartGeometry(daily);
  const totalOrders = daily.reduce((sum, day) => sum + day.orders, 0);
  const totalRevenue = daily.reduce((sum, day) => sum + day.revenue, 0);
  const busiest = daily.reduce<Day | undefined>((best, day) => (!best || day.orders > best.orders ? day : best), undefined);
  const first = daily[0];
  const last = daily[daily.length - 1];
  const summary =
    first && last
      ? `${totalOrders} orders and ${formatRevenue(totalRevenue)} revenue from ${shortDate(first.date)} to ${shortDate(last.date)}.` +
        (busiest && busiest.orders > 0 ? ` Busiest day: ${shortDate(busiest.date)} with ${busiest.orders} orders.` : '')
      : 'No data yet.';

  return (
    <figure className="card bg-base-100 shadow-sm">
      <div className="card-body gap-2 p-4">
        <figcaption className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title text-base">Orders and revenue, last 30 days</h2>
          <span className="flex gap-4 text-sm" aria-hidden="true">
            <span className="flex items-center gap-1">
              <span className="inline-block h-3 w-3 rounded-sm bg-primary" /> Orders
            </span>
            <span className="flex items-center gap-1">
              <span className="inline-block h-0.5 w-4 bg-accent" /> Revenue
            </span>
          </span>
        </figcaption>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-labelledby={`${titleId} ${descId}`}>
          <title id={titleId}>Orders and revenue per day, last 30 days</title>
          <desc id={descId}>{summary}</desc>
          <line x1={PAD.left} x2={PAD.left + PLOT_W} y1={PAD.top + PLOT_H} y2={PAD.top + PLOT_H} className="stroke-base-300" strokeWidth="1" />
          {bars.map((bar, index) => (
            <rect key={daily[index]!.date} x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx="1.5" className="fill-primary/80" />
          ))}
          {daily.length > 0 && <polyline points={line} fill="none" className="stroke-accent" strokeWidth="2" strokeLinejoin="round" />}
          <text x={PAD.left - 6} y={PAD.top + 8} textAnchor="end" className="fill-base-content text-[11px]">
            {maxOrders}
          </text>
          <text x={PAD.left - 6} y={PAD.top + PLOT_H} textAnchor="end" className="fill-base-content text-[11px]">
            0
          </text>
          <text x={PAD.left + PLOT_W + 6} y={PAD.top + 8} className="fill-base-content text-[11px]">
            {formatRevenue(maxRevenue)}
          </text>
          {first && (
            <text x={PAD.left} y={HEIGHT - 6} className="fill-base-content text-[11px]">
              {shortDate(first.date)}
            </text>
          )}
          {last && (
            <text x={PAD.left + PLOT_W} y={HEIGHT - 6} textAnchor="end" className="fill-base-content text-[11px]">
              {shortDate(last.date)}
            </text>
          )}
        </svg>
        <table className="sr-only">
          <caption>Orders and revenue per day, last 30 days</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Orders</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.date}>
                <th scope="row">{shortDate(day.date)}</th>
                <td>{day.orders}</td>
                <td>{formatRevenue(day.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
