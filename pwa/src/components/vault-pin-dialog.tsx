import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { notifyLocalWrite } from '../db/sync-engine.ts';
import type { UserDb } from '../db/local-db.ts';
import { readVault } from '../db/vault-session.ts';
import { addPasskey, disableVault, enableVault, MAX_WRONG_PINS, PIN_MIN_DIGITS, unlockVault, unlockWithPasskey, type PendingChange } from '../db/vault.ts';
import { signOut, useAuth } from '../lib/auth.tsx';
import { WIPED_REASON } from '../lib/wipe-notice.ts';
import { ModalDialog } from './modal-dialog.tsx';
import { ModalFormActions } from './modal-form-actions.tsx';

export type PinDialogMode = 'enable' | 'unlock' | 'disable' | 'passkey';

const titles: Record<PinDialogMode, string> = {
  enable: 'Lock passwords with a PIN',
  unlock: 'Unlock passwords',
  disable: 'Turn off the PIN lock',
  passkey: 'Unlock with a passkey too',
};

/** What a queued change is, in words, for the list shown before the last try. */
const pendingLabels: Partial<Record<PendingChange['name'], string>> = {
  placeOrder: 'An order you placed',
  setOrderStatus: 'An order status change',
  setPaymentStatus: 'A payment status change',
  deliverOrder: 'A delivery you typed',
  setStockStatus: 'A stock status change',
  cancelOrder: 'An order you cancelled',
  sendPaymentProof: 'A payment proof',
  reportProblem: 'A problem report',
  declineReport: 'A report answer',
  logReveal: 'A view of a password',
};

/** What each mode tells the person above the PIN field. */
const hints: Record<PinDialogMode, string> = {
  enable: `The delivered passwords on this device are kept encrypted; the shop checks this PIN when you unlock (so unlocking needs a connection; once unlocked they read offline). It locks again after 5 minutes unused. ${MAX_WRONG_PINS} wrong PINs in a row remove them from this device and sign you out: the passwords come back when you sign in again; before the last try you see any changes not sent yet.`,
  unlock: 'Enter the PIN you chose for this device. The shop checks it, so this needs a connection.',
  passkey: 'Enter your PIN, then confirm with this device’s screen lock: the passkey then unlocks the passwords instead of the PIN.',
  disable: 'The passwords are then kept unencrypted on this device again.',
};

const submitLabels: Record<PinDialogMode, string> = { enable: 'Turn On', unlock: 'Unlock', disable: 'Turn Off', passkey: 'Add Passkey' };

interface PinDialogProps {
  mode: PinDialogMode;
  db: UserDb;
  userId: string;
  onClose: () => void;
  onDone?: () => void;
}

/**
 * Asks for the vault's PIN (decision 068): to switch the vault on (twice), to unlock it, or to switch it
 * off. The fifth wrong PIN in a row clears the device's copy and signs out.
 */
export function VaultPinDialog(props: PinDialogProps) {
  const { mode, db, userId, onClose, onDone } = props;
  const ids = { pin: useId(), again: useId(), hint: useId(), error: useId() };
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Before the try that could remove everything, the changes not sent yet are shown and the person decides (decision 181).
  const [lastTry, setLastTry] = useState<PendingChange[] | null>(null);
  const auth = useAuth();
  const leaveWiped = useWipedExit(userId);
  const hasPasskey = useHasPasskey(db, mode);

  const unlockByPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      await unlockWithPasskey(db);
      notifyLocalWrite();
      finish();
    } catch (cause) {
      console.warn('Passkey unlock failed', cause);
      setError('The passkey did not unlock it. Use the PIN, or try again.');
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent | MouseEvent, confirmLast = false) => {
    event.preventDefault();
    if (!new RegExp(`^\\d{${PIN_MIN_DIGITS},12}$`).test(pin)) return setError(`Enter ${PIN_MIN_DIGITS} to 12 digits.`);
    if (mode === 'enable' && pin !== again) return setError('The two PINs differ.');
    setBusy(true);
    setError(null);
    try {
      if (mode === 'enable') {
        await enableVault(db, pin);
        return finish();
      }
      const email = auth.status === 'signedIn' ? auth.user.email : userId;
      const result = await tryMode(mode, db, pin, email, { confirmLast });
      setLastTry(null);
      if (result.kind === 'last-try') return setLastTry(result.pending);
      if (result.kind === 'wrong') {
        setPin('');
        return setError(
          `Wrong PIN. ${result.left === 1 ? 'One more wrong PIN' : `${result.left} more wrong PINs`} and the passwords are removed from this device.`,
        );
      }
      if (result.kind === 'wiped') return await leaveWiped();
      // Changes typed while locked (a delivery's password) can go out now.
      notifyLocalWrite();
      finish();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  };

  const finish = () => {
    onDone?.();
    onClose();
  };

  return (
    <ModalDialog title={titles[mode]} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p id={ids.hint} className="mb-3 text-sm">
          {hints[mode]}
        </p>
        <PinInputs mode={mode} ids={ids} pin={pin} again={again} error={error} setPin={setPin} setAgain={setAgain} />
        {lastTry && <LastTryNotice pending={lastTry} busy={busy} onTry={(event) => void submit(event, true)} />}
        {hasPasskey && (
          <button type="button" className="btn btn-outline mb-3 w-full" onClick={() => void unlockByPasskey()} disabled={busy}>
            Unlock with Passkey
          </button>
        )}
        <ModalFormActions onCancel={onClose} busy={busy} submitLabel={submitLabels[mode]} />
      </form>
    </ModalDialog>
  );
}

/** The PIN (twice when switching on) and the error under it. */
function PinInputs({
  mode,
  ids,
  pin,
  again,
  error,
  setPin,
  setAgain,
}: {
  mode: PinDialogMode;
  ids: { pin: string; again: string; hint: string; error: string };
  pin: string;
  again: string;
  error: string | null;
  setPin: (pin: string) => void;
  setAgain: (pin: string) => void;
}) {
  return (
    <>
      <label className="form-control mb-3 block" htmlFor={ids.pin}>
        <span className="label-text mb-1 block font-semibold">{mode === 'enable' ? `New PIN (${PIN_MIN_DIGITS} to 12 digits)` : 'PIN'}</span>
        <input
          id={ids.pin}
          className="input input-bordered w-full"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          value={pin}
          onChange={(event) => setPin(event.target.value.trim())}
          aria-describedby={error ? `${ids.hint} ${ids.error}` : ids.hint}
          aria-invalid={error ? true : undefined}
        />
      </label>
      {mode === 'enable' && (
        <label className="form-control mb-3 block" htmlFor={ids.again}>
          <span className="label-text mb-1 block font-semibold">The same PIN again</span>
          <input
            id={ids.again}
            className="input input-bordered w-full"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={again}
            onChange={(event) => setAgain(event.target.value.trim())}
          />
        </label>
      )}
      {error && (
        <p id={ids.error} role="alert" className="mb-3 text-sm text-error">
          {error}
        </p>
      )}
    </>
  );
}

/** One PIN try in the dialog's mode other than switching on. */
function tryMode(mode: Exclude<PinDialogMode, 'enable'>, db: UserDb, pin: string, email: string, options: { confirmLast: boolean }) {
  if (mode === 'unlock') return unlockVault(db, pin, options);
  if (mode === 'passkey') return addPasskey(db, pin, email, options);
  return disableVault(db, pin, options);
}

/** Unlocking offers the vault's passkey when one was added on this device. */
function useHasPasskey(db: UserDb, mode: PinDialogMode): boolean {
  const [hasPasskey, setHasPasskey] = useState(false);
  useEffect(() => {
    if (mode === 'unlock') void readVault(db).then((record) => setHasPasskey(!!record?.passkey));
  }, [db, mode]);
  return hasPasskey;
}

/** After the wipe: home, sign out, then the sign-in page saying why. */
function useWipedExit(userId: string): () => Promise<void> {
  const navigate = useNavigate();
  const unmounted = useUnmounted();
  return async () => {
    // Home first, and only once the screen that needs a user has gone: still open at the sign-out, it would
    // send the person to registration. (The router renders a navigation as a transition, later than the
    // sign-out's urgent update.)
    await navigate('/', { replace: true });
    await unmounted();
    await signOut(userId).catch((cause: unknown) => console.warn('Sign out after the wipe failed', cause));
    await navigate('/login', { replace: true, state: { reason: WIPED_REASON } });
  };
}

/** Before the try that could remove everything: the changes not sent yet, and a button to try anyway (decision 181). */
function LastTryNotice({ pending, busy, onTry }: { pending: PendingChange[]; busy: boolean; onTry: (event: MouseEvent) => void }) {
  return (
    <div role="alert" className="mb-3 rounded border border-warning p-3 text-sm">
      <p className="mb-1 font-semibold">
        One more wrong PIN removes the passwords from this device, with {pending.length === 1 ? 'this change' : `these ${pending.length} changes`} not sent yet:
      </p>
      <ul className="mb-2 list-disc pl-5">
        {pending.map((change) => (
          <li key={change.id}>
            {pendingLabels[change.name] ?? 'A change'}, {new Date(change.createdAt).toLocaleString()}
          </li>
        ))}
      </ul>
      <p className="mb-2">Connect this device and unlock it with the right PIN to send them, or try anyway.</p>
      <button type="button" className="btn btn-warning btn-sm" onClick={onTry} disabled={busy}>
        Try This PIN Anyway
      </button>
    </div>
  );
}

/** Waits until the calling component unmounts, or `limitMs` if it stays mounted. */
function useUnmounted(limitMs = 3000): () => Promise<void> {
  const gone = useRef<{ promise: Promise<void>; settle: () => void }>(null);
  if (!gone.current) {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => (settle = resolve));
    gone.current = { promise, settle };
  }
  useEffect(() => {
    const { settle } = gone.current!;
    return settle;
  }, []);
  const { promise } = gone.current;
  return () => Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, limitMs))]);
}
