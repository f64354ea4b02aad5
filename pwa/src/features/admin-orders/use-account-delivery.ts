import { useState, type FormEvent } from 'react';
import { typedCredentials } from '../../../../edge-api/src/contract/order-requests.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { finishQueuedChange } from '../../components/finish-queued-change.ts';
import { useToast } from '../../components/toast.tsx';
import { deliverOrder } from '../../db/mutations.ts';
import { isSealed } from '../../db/vault-session.ts';
import { hasCode } from '../../lib/app-error.ts';
import { checkWith } from '../../lib/form-problems.ts';
import { confirmDeliveryChange } from './delivery-change-confirm.ts';
import { useAvailableStocks, useOwnStockOfKind } from './use-available-stocks.ts';
import { useDuplicateCheck } from './use-duplicate-check.ts';
import { useProofUpload } from './use-proof-upload.ts';

export const FILL_BOTH_MESSAGE = 'Please fill in both WISE email and password';
export const DELIVERED_MESSAGE = 'Order updated successfully with WISE credentials!';
export const SAVED_OFFLINE_MESSAGE = 'Saved on this device: the delivery will be sent when the connection returns.';
export const STOCK_TAKEN_MESSAGE = 'This stock account was just taken by another delivery. Choose another one.';

const fieldLabels: Record<string, string> = { wiseEmail: 'WISE Email', wisePassword: 'WISE Password' };

export interface AccountDeliveryProps {
  order: Order;
  userId: string;
  online: boolean;
  onClose: () => void;
  replace?: boolean;
}

/** What the form holds, as the delivery needs it. */
interface DeliveryChoice {
  ownStockId: string;
  stock: WiseStock | null;
  email: string;
  password: string;
  proofPath: string | undefined;
}

/** The delivery, queued with the order and stock as this screen showed them. */
function queueDelivery(userId: string, order: Order, replace: boolean, { ownStockId, stock, email, password, proofPath }: DeliveryChoice) {
  const shown = { orders: [order], stocks: stock ? [stock] : [] };
  const base = { orderId: order.id, version: order.version, ...(replace ? { replace: true as const } : {}) };
  if (ownStockId) return deliverOrder(userId, { ...base, serviceStockId: ownStockId }, { shown });
  if (stock) return deliverOrder(userId, { ...base, stockId: stock.id }, { shown });
  return deliverOrder(userId, { ...base, wiseEmail: email.trim(), wisePassword: password, ...(proofPath ? { wiseImage: proofPath } : {}) }, { shown });
}

/** The API's own rules for typed credentials, before anything is queued: the first fault, worded for the form. */
function typedProblemText({ ownStockId, stock, email, password }: DeliveryChoice): string | null {
  const [typedProblem] = stock || ownStockId ? [] : Object.entries(checkWith(typedCredentials, { wiseEmail: email.trim(), wisePassword: password }));
  if (!typedProblem) return null;
  const [field, problem] = typedProblem;
  return `${fieldLabels[field] ?? field} ${problem}`;
}

/** Whether to go on: a duplicate is confirmed, and so is a change over what the customer already sees. */
async function confirmDelivery(
  confirm: ReturnType<typeof useConfirm>,
  checkNow: (() => Promise<{ needsConfirmation: boolean }>) | null,
  order: Order,
  replace: boolean,
): Promise<boolean> {
  // Never deliver on a stale answer: the check is for the values as they are now.
  // An item of the service's own stock was checked for duplicates when it was added (no check then).
  if (checkNow && (await checkNow()).needsConfirmation) {
    const ok = await confirm({
      title: 'Deliver duplicate credentials?',
      text: 'These exact credentials already exist in another order! Delivering them again will create duplicate credentials.',
      confirmLabel: 'Override & Deliver',
      danger: true,
    });
    if (!ok) return false;
  }
  // A delivery over one the customer already sees: the order and customer are named, and asked about, first.
  return confirmDeliveryChange(confirm, order, replace, 'These WISE credentials replace what the customer sees.');
}

/** The typed email and password, or the WISE stock they were filled from. */
export function useCredentialFields() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [stock, setStock] = useState<WiseStock | null>(null);
  const type = (change: () => void) => {
    change();
    setStock(null);
  };
  const clearStock = () => {
    setStock(null);
    setEmail('');
    setPassword('');
  };
  return { email, setEmail, password, setPassword, stock, setStock, type, clearStock };
}

/** The account delivery's state: typed fields or a picked stock, the duplicate check, the proof image, and the submit. */
export function useAccountDelivery({ order, userId, online, onClose, replace = false }: AccountDeliveryProps) {
  const toast = useToast();
  const confirm = useConfirm();
  const [stockReloads, setStockReloads] = useState(0);
  const stocks = useAvailableStocks(online, stockReloads);
  const ownStock = useOwnStockOfKind(order.productId, 'account');
  const [ownStockId, setOwnStockId] = useState('');

  const fields = useCredentialFields();
  const { email, password, stock, setStock, setEmail, setPassword, clearStock } = fields;
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const upload = useProofUpload(setError);
  const { warning, checkNow, problem } = useDuplicateCheck(email, password, order.id, online);
  // A picked stock is delivered by its id: a moderator's copy holds its password masked, and that is enough.
  const filled = ownStockId !== '' || stock !== null || (email.trim() !== '' && password !== '');

  const pickStock = (picked: WiseStock) => {
    setStock(picked);
    setEmail(picked.wiseEmail);
    // A password sealed by this device's vault is not typed into the field: the stock goes by its id.
    setPassword(isSealed(picked.wisePassword) ? '' : picked.wisePassword);
    setError(null);
    upload.remove();
  };

  const refused = (cause: unknown) => {
    // The form still holds everything, so the refused change is shown here rather than in the failed list.
    if ((stock || ownStockId) && hasCode(cause, 'stock_unavailable')) {
      clearStock();
      setOwnStockId('');
      setStockReloads((n) => n + 1);
      setError(STOCK_TAKEN_MESSAGE);
    } else {
      setError(`Failed to update order: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!filled) {
      setError(FILL_BOTH_MESSAGE);
      return;
    }
    if (upload.uploading || submitting) return;
    const choice = { ownStockId, stock, email, password, proofPath: upload.proof?.path };
    const typedProblem = typedProblemText(choice);
    if (typedProblem) {
      setError(typedProblem);
      return;
    }
    setSubmitting(true);
    try {
      if (!(await confirmDelivery(confirm, ownStockId ? null : checkNow, order, replace))) return;
      const handle = queueDelivery(userId, order, replace, choice);
      try {
        await finishQueuedChange(userId, handle, { toast, confirmed: DELIVERED_MESSAGE, savedOffline: SAVED_OFFLINE_MESSAGE, close: onClose });
      } catch (cause) {
        refused(cause);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return {
    fields,
    own: { stock: ownStock, id: ownStockId, choose: setOwnStockId },
    stocks,
    pickStock,
    check: { warning, problem },
    upload,
    error,
    submitting,
    filled,
    submit,
  };
}
