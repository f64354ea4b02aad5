import { useState, type FormEvent } from 'react';
import { newStockPassword as passwordRule } from '../../../../edge-api/src/contract/wise-stock-requests.ts';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { newPasswordProblem } from '../../components/new-password-fields.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

export const ROTATED_ORDER_MESSAGE = (orderId: string) =>
  `Password changed. Order #${shortOrderId(orderId)} now shows the new password, and its customer is told on the order.`;
export const DUPLICATE_PASSWORD_MESSAGE = 'This password is already used by another stock or a delivered order. Use it anyway?';

/**
 * Changes a stock's password (decision 064): the order that received the stock shows the new password at
 * once, the old one kept in its history. Needs a connection: it must pass the duplicate check first.
 * The new password is typed twice (each entry can be shown) under the account rules, and a sold stock's
 * order and customer are named before anything changes (decision 221).
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function ChangePasswordModal({ stock, buyer, online, onClose }: { stock: WiseStock; buyer: string | null; online: boolean; onClose: () => void }) {
  const toast = useToast();
  const db = useUserDb();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState(false);
  const [sending, setSending] = useState(false);

  const send = async (overrideDuplicates: boolean) => {
    setSending(true);
    setError(null);
    try {
      const answer = await unwrap(
        api['wise-stocks'][':id'].password.$post({
          param: { id: stock.id },
          json: { wisePassword: password, version: stock.version, ...(overrideDuplicates ? { overrideDuplicates } : {}) },
        }),
      );
      if (db) await keepOnDevice(db, { stocks: [answer.stock as WiseStock] });
      toast.success(answer.orderId ? ROTATED_ORDER_MESSAGE(answer.orderId) : 'Password changed.');
      onClose();
    } catch (cause) {
      if (hasCode(cause, 'duplicate_credentials')) setDuplicate(true);
      else setError(`Failed to change the password: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      setSending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const mismatch = newPasswordProblem({ password, confirmation });
    if (mismatch) {
      setError(mismatch);
      return;
    }
    const checked = passwordRule.safeParse(password);
    if (!checked.success) {
      setError(`New password ${checked.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    void send(false);
  };

  return (
    <ModalDialog title="Change Password" onClose={onClose} busy={sending}>
      <p className="mb-3 text-sm">
        {stock.wiseName} (<span className="break-all">{stock.wiseEmail}</span>){stock.orderId ? ': sold.' : '.'}
      </p>
      {stock.orderId && (
        <p className="alert alert-warning mb-4 text-sm" data-testid="rotation-reaches">
          This changes what a customer sees: order #{shortOrderId(stock.orderId)} of {buyer ?? 'its customer'} will show the new password at once, and they are
          told on the order.
        </p>
      )}
      <form noValidate onSubmit={submit}>
        {!online && <p className="mb-3 text-sm">Offline: changing a password needs a connection for its duplicate check.</p>}
        <PasswordInput
          label="New password"
          className="mb-3"
          required
          hint="Minimum 6 characters"
          autoComplete="new-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setDuplicate(false);
          }}
        />
        <PasswordInput
          label="Confirm new password"
          className="mb-3"
          required
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => {
            setConfirmation(event.target.value);
            setDuplicate(false);
          }}
        />
        {duplicate && (
          <div role="alert" className="alert alert-warning mb-3 flex-col items-start text-sm">
            <p>{DUPLICATE_PASSWORD_MESSAGE}</p>
            <button type="button" className="btn btn-warning btn-sm" onClick={() => void send(true)} disabled={sending}>
              Use anyway
            </button>
          </div>
        )}
        {error && (
          <p role="alert" className="alert alert-error mb-3 text-sm">
            {error}
          </p>
        )}
        <ModalFormActions
          onCancel={onClose}
          busy={sending}
          submitLabel={stock.orderId ? `Change password of order #${shortOrderId(stock.orderId)}` : 'Change password'}
          submitDisabled={!online || password === '' || confirmation === ''}
        />
      </form>
    </ModalDialog>
  );
}
