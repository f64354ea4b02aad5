import type { OutboxEntry } from '../db/local-db.ts';
import { loadDevice } from '../db/device.ts';
import { changesCount as changes, shortId } from '../lib/format.ts';

const changeLabels: Record<OutboxEntry['name'], string> = {
  placeOrder: 'New order',
  setOrderStatus: 'Order status change',
  setPaymentStatus: 'Payment status change',
  deliverOrder: 'Credentials delivery',
  setStockStatus: 'Wise stock status change',
  cancelOrder: 'Order cancellation',
  sendPaymentProof: 'Payment proof',
  reportProblem: 'Problem report',
  declineReport: 'Problem report answer',
  logReveal: 'Password view',
  openTicket: 'New support ticket',
  replyTicket: 'Support ticket reply',
  closeTicket: 'Support ticket closing',
};

/** The changes the server refused, each with Retry and Dismiss (the offline banner shows it when there are some). */
export function FailedChanges({ userId, failed }: { userId: string; failed: OutboxEntry[] }) {
  return (
    <details className="bg-error px-4 py-2 text-sm text-error-content">
      <summary className="cursor-pointer text-center font-semibold">{changes(failed.length)} could not be saved. Show details</summary>
      <ul className="mx-auto mt-2 flex max-w-3xl flex-col gap-2">
        {failed.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center gap-2 rounded bg-base-100 p-2 text-base-content">
            <span className="flex-1">
              <strong>{changeLabels[entry.name]}</strong>
              {entry.target && <span className="font-mono"> #{shortId(entry.target.id)}</span>}: {entry.error ?? 'Refused by the server'}
            </span>
            <button
              type="button"
              className="btn btn-xs btn-primary"
              onClick={() => void loadDevice().then((device) => device.retryFailed(userId, entry.id).saved.catch(() => {}))}
            >
              Retry
            </button>
            <button type="button" className="btn btn-xs" onClick={() => void loadDevice().then((device) => device.dismissFailed(userId, entry.id))}>
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
