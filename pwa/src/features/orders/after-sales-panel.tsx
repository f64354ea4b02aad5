import { useId, useState, type FormEvent } from 'react';
import { orderReportBody, REPORT_NOTE_MAX } from '../../../../edge-api/src/contract/order-requests.ts';
import { reportReasonLabels, reportReasons, type Order, type ReportReason } from '../../../../edge-api/src/contract/orders.ts';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { finishQueuedChange } from '../../components/finish-queued-change.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import { reportProblem } from '../../db/mutations.ts';
import { useAuth } from '../../lib/auth.tsx';
import { checkWith } from '../../lib/form-problems.ts';
import { formatDateLong, formatDateTime } from '../../lib/format.ts';
import { checkImageFile, IMAGE_FILE_ACCEPT, imageFileHint } from '../../lib/image-upload.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

export const REPORT_SENT_MESSAGE = 'Problem reported. Our team will look at it; the outcome shows on this order.';
export const REPORT_SAVED_OFFLINE_MESSAGE = 'Saved on this device: your report will be sent when the connection returns.';

const delivered = (order: Order) => !!order.wiseEmail && (order.orderStatus === 'delivered' || order.orderStatus === 'completed');

/** Whether the customer may report a problem now: delivered, under warranty, no report waiting. */
export function canReport(order: Order, now: Date = new Date()): boolean {
  return delivered(order) && !!order.warrantyEndsAt && Date.parse(order.warrantyEndsAt) >= now.getTime() && order.report?.status !== 'open';
}

/**
 * After the sale, on the customer's order card (decisions 063, 064): the warranty, a problem report and
 * its outcome, a notice when the password was changed, and the earlier deliveries with their emails masked.
 */
export function AfterSalesPanel({ order }: { order: Order }) {
  const [reporting, setReporting] = useState(false);
  if (!delivered(order)) return null;
  const { report, deliveryHistory = [] } = order;
  const warrantyEnds = order.warrantyEndsAt ? Date.parse(order.warrantyEndsAt) : null;
  const lastChange = deliveryHistory.at(-1);
  const rotated = order.credentialsRotatedAt && lastChange?.kind === 'rotated';

  return (
    <section className="space-y-3" aria-label={`After-sales for ${order.title}, order #${shortOrderId(order.id)}`}>
      {rotated && (
        <p role="status" className="alert alert-info text-sm" data-testid="rotation-notice">
          The password of this account was changed on {formatDateTime(order.credentialsRotatedAt)}. The credentials below are the new ones.
        </p>
      )}
      {report?.status === 'open' && (
        <p role="status" className="alert alert-warning text-sm" data-testid="report-outcome">
          You reported a problem on {formatDateTime(report.reportedAt)} ({reportReasonLabels[report.reason]}). Our team is looking at it; the outcome will show
          here.
        </p>
      )}
      {report?.status === 'replaced' && (
        <p role="status" className="alert alert-success text-sm" data-testid="report-outcome">
          Your problem report was answered with new credentials{report.resolvedAt ? ` on ${formatDateTime(report.resolvedAt)}` : ''}. They are shown below; the
          earlier ones no longer apply.
        </p>
      )}
      {report?.status === 'declined' && (
        <div role="status" className="alert alert-error flex-col items-start text-sm" data-testid="report-outcome">
          <p>Your problem report was declined{report.resolvedAt ? ` on ${formatDateTime(report.resolvedAt)}` : ''}. Our team says:</p>
          <blockquote className="font-semibold whitespace-pre-line">{report.reply}</blockquote>
        </div>
      )}

      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p>
          {warrantyEnds === null
            ? 'No warranty on this service.'
            : warrantyEnds >= Date.now()
              ? `Warranty until ${formatDateLong(order.warrantyEndsAt)}.`
              : `The warranty ended on ${formatDateLong(order.warrantyEndsAt)}.`}
        </p>
        {canReport(order) && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setReporting(true)}>
            Report a problem
          </button>
        )}
      </div>

      {deliveryHistory.length > 0 && (
        <details className="rounded-box bg-base-200 p-3 text-sm">
          <summary className="cursor-pointer font-semibold">Earlier credentials ({deliveryHistory.length})</summary>
          <ul className="mt-2 space-y-1">
            {deliveryHistory.map((past) => (
              <li key={`${past.at}-${past.kind}`}>
                {past.kind === 'replaced' ? 'Replaced' : 'Password changed'} on {formatDateTime(past.at)}: <span className="font-mono">{past.wiseEmail}</span>
              </li>
            ))}
          </ul>
        </details>
      )}

      {reporting && <ReportDialog order={order} onClose={() => setReporting(false)} />}
    </section>
  );
}

function useReportForm(order: Order, onClose: () => void) {
  const auth = useAuth();
  const toast = useToast();
  const [reason, setReason] = useState<ReportReason>('login_fails');
  const [note, setNote] = useState('');
  const [screenshot, setScreenshot] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const userId = auth.status === 'signedIn' ? auth.user.id : '';

  const pickFile = (file: File | undefined) => {
    setError(null);
    if (!file) return setScreenshot(null);
    const problem = checkImageFile(file, uploadLimitMegabytes.report);
    if (problem) {
      setScreenshot(null);
      setError(`${problem.title} ${problem.text}`);
      return;
    }
    setScreenshot(file);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setError(null);
    // The API's own rules, before anything is queued.
    const problems = checkWith(orderReportBody, { reason, note });
    const [field, problem] = Object.entries(problems)[0] ?? [];
    if (field) {
      setError(`${field === 'note' ? 'What happened' : 'Reason'} ${problem}`);
      return;
    }
    setSending(true);
    const handle = reportProblem(userId, {
      orderId: order.id,
      reason,
      note: note.trim(),
      ...(screenshot ? { screenshot, screenshotName: screenshot.name } : {}),
    });
    try {
      await finishQueuedChange(userId, handle, { toast, confirmed: REPORT_SENT_MESSAGE, savedOffline: REPORT_SAVED_OFFLINE_MESSAGE, close: onClose });
    } catch (cause) {
      // The form still holds everything, so the refusal is shown here rather than on the card.
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setSending(false);
    }
  };
  return { reason, setReason, note, setNote, error, sending, pickFile, submit };
}

function ReportDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const id = useId();
  const { reason, setReason, note, setNote, error, sending, pickFile, submit } = useReportForm(order, onClose);
  return (
    <ModalDialog title="Report a problem" onClose={onClose} busy={sending}>
      <p className="mb-4 text-sm">
        {order.title}: tell us what does not work. Within the warranty (until {formatDateLong(order.warrantyEndsAt)}) we replace the credentials or answer you
        here.
      </p>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <div>
          <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium">
            Reason
          </label>
          <select id={`${id}-reason`} className="select w-full" value={reason} onChange={(event) => setReason(event.target.value as ReportReason)}>
            {reportReasons.map((value) => (
              <option key={value} value={value}>
                {reportReasonLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-note`} className="mb-1 block text-sm font-medium">
            What happened{reason === 'other' ? '' : ' (optional)'}
          </label>
          <textarea
            id={`${id}-note`}
            className="textarea w-full"
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            value={note}
            required={reason === 'other'}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-shot`} className="mb-1 block text-sm font-medium">
            Screenshot (optional)
          </label>
          <input
            id={`${id}-shot`}
            type="file"
            className="file-input w-full"
            accept={IMAGE_FILE_ACCEPT}
            aria-describedby={`${id}-shot-hint`}
            onChange={(event) => pickFile(event.target.files?.[0])}
          />
          <p id={`${id}-shot-hint`} className="mt-1 text-xs text-base-content/80">
            {imageFileHint(uploadLimitMegabytes.report)}
          </p>
        </div>
        {error && (
          <p role="alert" className="alert alert-error text-sm">
            {error}
          </p>
        )}
        <ModalFormActions onCancel={onClose} busy={sending} submitLabel="Send report" />
      </form>
    </ModalDialog>
  );
}
