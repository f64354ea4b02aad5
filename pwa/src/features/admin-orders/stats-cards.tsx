import type { OrderStats } from '../../../../edge-api/src/contract/orders.ts';
import { formatRevenue } from './order-stats.ts';

/** Total orders, revenue, active customers, pending payments and delivered orders. */
export function StatsCards({ stats, local }: { stats: OrderStats | undefined; local: boolean }) {
  const cards = [
    { label: 'Total Orders', value: stats?.totalOrders.toLocaleString('en-US') },
    { label: 'Total Revenue', value: stats ? formatRevenue(stats.totalRevenue) : undefined },
    { label: 'Active Customers', value: stats?.activeCustomers.toLocaleString('en-US') },
    { label: 'Pending Payments', value: stats?.pendingPayments.toLocaleString('en-US') },
    { label: 'Delivered', value: stats?.delivered.toLocaleString('en-US') },
  ];
  return (
    <section aria-labelledby="order-stats-heading">
      <h2 id="order-stats-heading" className="sr-only">
        Order statistics
      </h2>
      {local && <p className="mb-2 text-sm text-base-content/70">Offline: figures from the orders saved on this device.</p>}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
        {cards.map((card) => (
          <div key={card.label} className="rounded-box bg-base-100 p-3 shadow-sm sm:p-4">
            <dt className="text-sm text-base-content/70">{card.label}</dt>
            <dd className="mt-1 text-xl font-bold sm:text-2xl">
              {card.value ?? (
                <>
                  <span className="loading loading-dots loading-sm" aria-hidden="true" />
                  <span className="sr-only">Loading</span>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
