import { useId, useRef, useState, type FormEvent } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import { TRANSACTION_ID_MAX } from '../../../../edge-api/src/contract/order-requests.ts';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import { acceptsPaymentProof, isCancellable, type Order } from '../../../../edge-api/src/contract/orders.ts';
import { instructionsFor, type PaymentInstructions } from '../../../../edge-api/src/contract/settings.ts';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { PaymentInstructionsBox } from '../../components/payment-instructions.tsx';
import { useToast } from '../../components/toast.tsx';
import { cancelOrder, sendPaymentProof } from '../../db/mutations.ts';
import { serverOutcome } from '../../db/server-outcome.ts';
import { paymentMethodName } from '../../lib/catalog.ts';
import { AmountDue } from '../../lib/display-currency-price.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { checkImageFile, convertHeicToJpeg, IMAGE_FILE_ACCEPT, imageFileHint, isHeicFile } from '../../lib/image-upload.ts';
import { chatLinkWithMessage, paymentMessage, shortOrderId } from '../../lib/order-rules.ts';

export const PAYMENT_FAILED_NEXT =
  'We could not confirm your payment. Check the payment details below and pay again, or send the correct transaction id or screenshot; if you already paid, contact the shop.';
export const PROOF_SENT = 'Payment proof sent. The shop will check it and mark your order paid.';
export const PROOF_QUEUED = 'Your payment proof is saved and will be sent when you are back online.';
export const ORDER_CANCELLED = 'Order cancelled.';
export const CANCEL_QUEUED = 'Your cancellation is saved and will be sent when you are back online.';

/** How long to wait for the server before telling the customer the change waits for the network. */
const CONFIRM_WAIT_MS = 10_000;

/** The customer's note on an order, as they wrote it. */
export function OrderNote({ note }: { note: string | undefined }) {
  if (!note) return null;
  return (
    <div className="rounded-box bg-base-200 p-3 text-sm">
      <h3 className="font-semibold">Your note to the shop</h3>
      <p className="whitespace-pre-line break-words">{note}</p>
    </div>
  );
}

/**
 * What an unpaid order needs from its customer: how to pay with the method chosen (until it is paid),
 * what to do after a failed payment, the proof sent so far, and, with `userId`, the forms to send a proof
 * and to cancel.
 */
export function OrderPayment({
  order,
  paymentInstructions,
  providerChatUrl,
  userId,
  currency = null,
}: {
  order: Order;
  paymentInstructions: PaymentInstructions[];
  providerChatUrl: string;
  userId?: string;
  /** The customer's display currency: the amount due stays in USD, this only for reference (decision 241). */
  currency?: DisplayCurrency | null;
}) {
  const unpaid = (order.paymentStatus === 'pending' || order.paymentStatus === 'failed') && order.orderStatus !== 'cancelled';
  if (!unpaid) return null;
  const method = order.paymentMethod;
  const proof = order.paymentProof;
  return (
    <section className="space-y-3 rounded-box border border-base-300 p-4" aria-label={`Payment for order #${shortOrderId(order.id)}`}>
      {order.paymentStatus === 'failed' && (
        <div role="status" className="alert alert-error text-sm">
          <span>
            <strong>Payment Failed.</strong> {PAYMENT_FAILED_NEXT}{' '}
            <ExternalLink className="link font-semibold" href={chatLinkWithMessage(providerChatUrl, paymentMessage(order))}>
              Contact the shop
            </ExternalLink>
          </span>
        </div>
      )}
      <AmountDue price={order.price} currency={currency} />
      {method && (
        <div>
          <h3 className="mb-2 font-semibold">How to pay with {paymentMethodName(method)}</h3>
          <PaymentInstructionsBox method={method} instructions={instructionsFor({ paymentInstructions }, method)} />
        </div>
      )}
      {proof && (
        <div className="text-sm" data-testid="payment-proof-sent">
          <p className="font-semibold">Payment proof sent {formatDateTime(proof.sentAt)}</p>
          {proof.transactionId && (
            <p>
              Transaction ID: <span className="font-mono break-all">{proof.transactionId}</span>
            </p>
          )}
          {proof.screenshotUrl && (
            <ExternalLink className="link" href={proof.screenshotUrl}>
              View the screenshot you sent
            </ExternalLink>
          )}
        </div>
      )}
      {userId && <CustomerPaymentActions order={order} userId={userId} />}
    </section>
  );
}

function useCustomerPaymentActions(order: Order, userId: string) {
  const toast = useToast();
  const confirm = useConfirm();
  const fileRef = useRef<HTMLInputElement>(null);
  const [transactionId, setTransactionId] = useState('');
  const [screenshot, setScreenshot] = useState<File | null>(null);
  /** Why the file chosen was not taken (its type or size): repeated on Send Proof until another is chosen. */
  const [fileFault, setFileFault] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submitProof = async (event: FormEvent) => {
    event.preventDefault();
    const reference = transactionId.trim();
    if (!reference && !screenshot) return setProblem(fileFault ?? 'Enter the transaction id or choose a screenshot of the payment.');
    if (/\s/.test(reference)) return setProblem('The transaction id has no spaces: copy it exactly as your payment app shows it.');
    setBusy(true);
    setProblem(null);
    try {
      let picture: { bytes: ArrayBuffer; type: string } | undefined;
      if (screenshot) {
        const file = (await isHeicFile(screenshot)) ? await convertHeicToJpeg(screenshot) : screenshot;
        picture = { bytes: await file.arrayBuffer(), type: file.type };
      }
      const handle = sendPaymentProof(userId, {
        orderId: order.id,
        ...(reference ? { transactionId: reference } : {}),
        ...(picture ? { screenshot: picture } : {}),
      });
      await handle.saved;
      setTransactionId('');
      setScreenshot(null);
      if (fileRef.current) fileRef.current.value = '';
      const outcome = await serverOutcome(handle.done, CONFIRM_WAIT_MS);
      if (outcome === 'confirmed') toast.success(PROOF_SENT, 4000);
      else toast.info(PROOF_QUEUED, 5000);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Failed to send the payment proof. Please try again.';
      setProblem(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    const ok = await confirm({
      title: 'Cancel this order?',
      subject: [`#${shortOrderId(order.id)} ${order.title}`],
      text: 'The shop will not process it. If you already paid, do not cancel: send the payment proof instead.',
      confirmLabel: 'Cancel Order',
      cancelLabel: 'Keep Order',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    try {
      const handle = cancelOrder(userId, { orderId: order.id });
      await handle.saved;
      const outcome = await serverOutcome(handle.done, CONFIRM_WAIT_MS);
      if (outcome === 'confirmed') toast.success(ORDER_CANCELLED, 3000);
      else toast.info(CANCEL_QUEUED, 5000);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Failed to cancel the order. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const changeTransactionId = (value: string) => {
    setTransactionId(value);
    setProblem(null);
  };
  const chooseFile = (file: File | null) => {
    const fault = file ? checkImageFile(file, uploadLimitMegabytes.payment) : null;
    const said = fault && `${fault.title} ${fault.text}`;
    setFileFault(said);
    setProblem(said);
    setScreenshot(fault ? null : file);
  };

  return { fileRef, transactionId, problem, busy, submitProof, cancel, changeTransactionId, chooseFile };
}

type PaymentActions = ReturnType<typeof useCustomerPaymentActions>;

function ProofForm({ order, actions }: { order: Order; actions: PaymentActions }) {
  const id = useId();
  const { fileRef, transactionId, problem, busy, submitProof, changeTransactionId, chooseFile } = actions;
  return (
    <form
      noValidate
      onSubmit={(event) => void submitProof(event)}
      className="space-y-2"
      aria-label={`Send a payment proof for order #${shortOrderId(order.id)}`}
    >
      <h3 className="font-semibold">{order.paymentProof ? 'Send another payment proof' : 'Already paid? Send the proof'}</h3>
      <div className="grid gap-2 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-trx`} className="mb-1 block text-sm">
            Transaction ID
          </label>
          <input
            id={`${id}-trx`}
            className="input input-sm w-full"
            value={transactionId}
            maxLength={TRANSACTION_ID_MAX}
            autoComplete="off"
            onChange={(event) => changeTransactionId(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-shot`} className="mb-1 block text-sm">
            Payment screenshot
          </label>
          <input
            id={`${id}-shot`}
            ref={fileRef}
            type="file"
            accept={IMAGE_FILE_ACCEPT}
            className="file-input file-input-sm w-full"
            aria-describedby={`${id}-shot-hint`}
            onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
          />
          <p id={`${id}-shot-hint`} className="mt-1 text-xs text-base-content/80">
            {imageFileHint(uploadLimitMegabytes.payment)}
          </p>
        </div>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-error">
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn-sm btn-secondary" disabled={busy}>
        {busy ? 'Sending...' : 'Send Proof'}
      </button>
    </form>
  );
}

function CustomerPaymentActions({ order, userId }: { order: Order; userId: string }) {
  const actions = useCustomerPaymentActions(order, userId);
  return (
    <div className="space-y-3">
      {acceptsPaymentProof(order) && <ProofForm order={order} actions={actions} />}
      {isCancellable(order) && (
        <button type="button" className="btn btn-sm btn-outline btn-error" disabled={actions.busy} onClick={() => void actions.cancel()}>
          Cancel Order
        </button>
      )}
    </div>
  );
}
