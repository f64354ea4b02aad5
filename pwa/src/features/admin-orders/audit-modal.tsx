import { useEffect, useState } from 'react';
import type { AuditEntry } from '../../../../edge-api/src/contract/audit.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { describeAuditEntry } from './audit-log.ts';

type State = { kind: 'loading' } | { kind: 'loaded'; entries: AuditEntry[] } | { kind: 'failed'; message: string };

/** Who changed the order, what and when (admins only; read from the server's audit log). */
export function AuditModal({ order, onClose }: { order: Order; onClose: () => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    unwrap(api.admin.audit.$get({ query: { entity: 'order', entityId: order.id } })).then(
      (entries) => {
        if (!cancelled) setState({ kind: 'loaded', entries });
      },
      (error: unknown) => {
        if (!cancelled) setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [order.id, attempt]);

  return (
    <ModalDialog title={`History of order #${shortOrderId(order.id)}`} onClose={onClose}>
      {order.views && (
        <p className="mb-3 rounded-box bg-base-200 p-3" data-testid="first-viewed">
          <strong>First viewed</strong> by the customer <time dateTime={order.views.firstAt}>{formatDateTime(order.views.firstAt)}</time>
          {order.views.firstDevice ? ` on ${order.views.firstDevice}` : ''} · viewed {order.views.count === 1 ? 'once' : `${order.views.count} times`}
        </p>
      )}
      {state.kind === 'loading' && (
        <p role="status" className="flex items-center gap-2">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" /> Loading history...
        </p>
      )}
      {state.kind === 'failed' && (
        <div role="alert" className="alert alert-error flex-col items-start">
          <p>Failed to load the order history: {state.message}</p>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              setState({ kind: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Try Again
          </button>
        </div>
      )}
      {state.kind === 'loaded' &&
        (state.entries.length === 0 ? (
          <p>No changes recorded for this order.</p>
        ) : (
          <ol className="space-y-3">
            {state.entries.map((entry) => (
              <li key={entry.id} className="rounded-box border border-base-300 p-3">
                <p className="font-medium">{describeAuditEntry(entry)}</p>
                <p className="text-sm text-base-content/70">
                  by {entry.actorEmail || 'the system'} · <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                </p>
              </li>
            ))}
          </ol>
        ))}
      <div className="modal-action">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
