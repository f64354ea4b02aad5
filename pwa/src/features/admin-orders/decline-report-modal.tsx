import { useId, useState, type FormEvent } from 'react';
import { REPORT_REPLY_MAX, reportDeclineBody } from '../../../../edge-api/src/contract/order-requests.ts';
import { reportReasonLabels, type Order } from '../../../../edge-api/src/contract/orders.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import { finishQueuedChange } from '../../components/finish-queued-change.ts';
import { declineReport } from '../../db/mutations.ts';
import { checkWith } from '../../lib/form-problems.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

export const DECLINED_MESSAGE = 'Report declined: the customer sees your message on the order.';

/** Declines a problem report with a message the customer reads on the order card (decision 063); queued like every change. */
export function DeclineReportModal({ order, userId, onClose }: { order: Order; userId: string; onClose: () => void }) {
  const toast = useToast();
  const id = useId();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const report = order.report;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const problem = checkWith(reportDeclineBody, { message }).message;
    if (problem) {
      setError(`Message ${problem}`);
      return;
    }
    setError(null);
    setSending(true);
    const handle = declineReport(userId, { orderId: order.id, message: message.trim() }, { shown: { orders: [order] } });
    try {
      await finishQueuedChange(userId, handle, {
        toast,
        confirmed: DECLINED_MESSAGE,
        savedOffline: 'Saved on this device: the answer is sent when the connection returns.',
        close: onClose,
      });
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setSending(false);
    }
  };

  return (
    <ModalDialog title="Decline problem report" onClose={onClose} busy={sending}>
      <p className="mb-2 text-sm">
        Order <span className="font-mono">#{shortOrderId(order.id)}</span>: {order.title} for {order.userName || order.userEmail}
      </p>
      {report && (
        <p className="mb-4 text-sm">
          Reported: <strong>{reportReasonLabels[report.reason]}</strong>
          {report.note ? `: ${report.note}` : ''}
        </p>
      )}
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <div>
          <label htmlFor={`${id}-message`} className="mb-1 block text-sm font-medium">
            Message to the customer
          </label>
          <textarea
            id={`${id}-message`}
            className="textarea w-full"
            rows={4}
            maxLength={REPORT_REPLY_MAX}
            required
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        </div>
        {error && (
          <p role="alert" className="alert alert-error text-sm">
            {error}
          </p>
        )}
        <ModalFormActions onCancel={onClose} busy={sending} submitLabel="Decline report" tone="danger" />
      </form>
    </ModalDialog>
  );
}
