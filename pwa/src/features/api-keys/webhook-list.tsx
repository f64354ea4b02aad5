import { useState } from 'react';
import type { AdminWebhook, ApiWebhookDelivery } from '../../../../edge-api/src/contract/partners.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/** Resend (decision 225): a finished delivery is posted again now; the list is read again after. */
function ResendButton({ delivery, onResent }: { delivery: ApiWebhookDelivery; onResent: () => void }) {
  const [state, setState] = useState<'idle' | 'sending' | 'failed'>('idle');
  if (delivery.state === 'pending') return null;
  const resend = async () => {
    setState('sending');
    try {
      await unwrap(api.admin['api-keys'].webhooks.deliveries[':id'].resend.$post({ param: { id: delivery.id } }));
      setState('idle');
      onResent();
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" className="btn btn-outline btn-xs min-h-11" disabled={state === 'sending'} onClick={() => void resend()}>
        {state === 'sending' ? 'Resending…' : 'Resend'}
        <span className="sr-only">
          {' '}
          the {delivery.event} delivery of order #{delivery.orderId.slice(-8)}
        </span>
      </button>
      {state === 'failed' && <span role="alert"> Could not resend.</span>}
    </>
  );
}

const stateBadge: Record<ApiWebhookDelivery['state'], string> = { pending: 'badge-warning', delivered: 'badge-success', failed: 'badge-error' };

/** One attempt in words: its answer's status or what went wrong. */
const attemptText = (attempt: ApiWebhookDelivery['attempts'][number]) => `${attempt.status ?? 'no answer'}${attempt.error ? ` (${attempt.error})` : ''}`;

/** Every account's webhook endpoints and their newest deliveries, each with its attempts (decision 174). */
export function WebhookList({ webhooks, onChange = () => {} }: { webhooks: AdminWebhook[]; onChange?: () => void }) {
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
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
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
                        <td>
                          <ResendButton delivery={delivery} onResent={onChange} />
                        </td>
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
