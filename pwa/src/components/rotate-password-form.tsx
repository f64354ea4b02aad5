import { useState, type FormEvent, type ReactNode } from 'react';
import { newStockPassword as passwordRule } from '../../../edge-api/src/contract/wise-stock-requests.ts';
import { hasCode } from '../lib/app-error.ts';
import { shortOrderId } from '../lib/order-rules.ts';
import { ModalDialog } from './modal-dialog.tsx';
import { ModalFormActions } from './modal-form-actions.tsx';
import { newPasswordProblem } from './new-password-fields.tsx';
import { PasswordInput } from './password-input.tsx';

export const DUPLICATE_PASSWORD_MESSAGE = 'This password is already used by another stock or a delivered order. Use it anyway?';

/** The toast after a sold item's password changed, for Wise stock and a service's own stock alike. */
export const ROTATED_ORDER_MESSAGE = (orderId: string) =>
  `Password changed. Order #${shortOrderId(orderId)} now shows the new password, and its customer is told on the order.`;

export interface RotatePasswordProps {
  /** What is changed: the stock or item, named without its secret. */
  about: ReactNode;
  /** The order that shows this password now, and its customer (decision 221): named before anything changes. */
  orderId: string | null;
  customer: string | null;
  online: boolean;
  onClose: () => void;
  /** Sends the new password; throws the server's refusal (a duplicate_credentials one asks to use it anyway). */
  send: (password: string, overrideDuplicates: boolean) => Promise<void>;
}

/** The new password, typed twice under the account rules: a sentence saying what is wrong, or null. */
function passwordProblem(password: string, confirmation: string): string | null {
  const mismatch = newPasswordProblem({ password, confirmation });
  if (mismatch) return mismatch;
  const checked = passwordRule.safeParse(password);
  return checked.success ? null : `New password ${checked.error.issues[0]?.message ?? 'is not valid'}`;
}

function DuplicateWarning({ sending, onUseAnyway }: { sending: boolean; onUseAnyway: () => void }) {
  return (
    <div role="alert" className="alert alert-warning mb-3 flex-col items-start text-sm">
      <p>{DUPLICATE_PASSWORD_MESSAGE}</p>
      <button type="button" className="btn btn-warning btn-sm" onClick={onUseAnyway} disabled={sending}>
        Use anyway
      </button>
    </div>
  );
}

/**
 * A password change in place (decisions 064, 221, 228), for Wise stock and a service's own stock alike: the
 * new password typed twice (each entry can be shown), and for a sold item the order and customer it will
 * change named before anything changes, its button naming the order. Needs a connection: the server checks
 * the password for duplicates first.
 */
export function RotatePasswordModal({ about, orderId, customer, online, onClose, send }: RotatePasswordProps) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState(false);
  const [sending, setSending] = useState(false);

  const submitTo = async (overrideDuplicates: boolean) => {
    setSending(true);
    setError(null);
    try {
      await send(password, overrideDuplicates);
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
    const problem = passwordProblem(password, confirmation);
    if (problem) setError(problem);
    else void submitTo(false);
  };
  const typed = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    setDuplicate(false);
  };

  return (
    <ModalDialog title="Change Password" onClose={onClose} busy={sending}>
      <p className="mb-3 text-sm">{about}</p>
      {orderId && (
        <p className="alert alert-warning mb-4 text-sm" data-testid="rotation-reaches">
          This changes what a customer sees: order #{shortOrderId(orderId)} of {customer ?? 'its customer'} will show the new password at once, and they are
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
          onChange={typed(setPassword)}
        />
        <PasswordInput
          label="Confirm new password"
          className="mb-3"
          required
          autoComplete="new-password"
          value={confirmation}
          onChange={typed(setConfirmation)}
        />
        {duplicate && <DuplicateWarning sending={sending} onUseAnyway={() => void submitTo(true)} />}
        {error && (
          <p role="alert" className="alert alert-error mb-3 text-sm">
            {error}
          </p>
        )}
        <ModalFormActions
          onCancel={onClose}
          busy={sending}
          submitLabel={orderId ? `Change password of order #${shortOrderId(orderId)}` : 'Change password'}
          submitDisabled={!online || password === '' || confirmation === ''}
        />
      </form>
    </ModalDialog>
  );
}
