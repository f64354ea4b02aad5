import type { AdminWebhook, ApiWebhookDelivery } from '../../../../edge-api/src/contract/partners.ts';

const stateBadge: Record<ApiWebhookDelivery['state'], string> = { pending: 'badge-warning', delivered: 'badge-success', failed: 'badge-error' };

/** One attempt in words: its answer's status or what went wrong. */
const attemptText = (attempt: ApiWebhookDelivery['attempts'][number]) => `${attempt.status ?? 'no answer'}${attempt.error ? ` (${attempt.error})` : ''}`;

/** Every account's webhook endpoints and their newest deliveries, each with its attempts (decision 174). */
export function WebhookList({ webhooks }: { webhooks: AdminWebhook[] }) {
  return (
    <section aria-labelledby="webhook-list-title" className="space-y-2">
      <h2 id="webhook-list-title" className="text-lg font-bold">
        Webhook Endpoints
      </h2>
      <p className="text-sm">Registered by keys with the API. Each event is retried for a day until the endpoint answers 2xx.</p>
      {webhooks.length === 0 && <p>No webhook endpoints yet.</p>}
      <ul className="space-y-2">
        {webhooks.map((webhook) => (
          <li key={webhook.id} className="card space-y-2 border border-base-300 bg-base-100 p-3 text-sm">
            <p className="break-all text-base font-bold">{webhook.url}</p>
            <p className="break-all">
              For {webhook.userEmail} · {webhook.events.join(', ')}
            </p>
            {webhook.deliveries.length === 0 ? (
              <p>Nothing sent yet.</p>
            ) : (
              // Focusable and named: a keyboard can scroll a table wider than a phone (axe: scrollable-region-focusable).
              <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Newest deliveries to ${webhook.url}`}>
                <table className="table table-sm">
                  <caption className="sr-only">Newest deliveries to {webhook.url}</caption>
                  <thead className="text-base-content">
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Order</th>
                      <th scope="col">State</th>
                      <th scope="col">Attempts</th>
                    </tr>
                  </thead>
                  <tbody>
                    {webhook.deliveries.map((delivery) => (
                      <tr key={delivery.id}>
                        <td>{delivery.event}</td>
                        <td>#{delivery.orderId.slice(-8)}</td>
                        <td>
                          <span className={`badge ${stateBadge[delivery.state]}`}>{delivery.state}</span>
                        </td>
                        <td>{delivery.attempts.map(attemptText).join(', ') || 'none yet'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
