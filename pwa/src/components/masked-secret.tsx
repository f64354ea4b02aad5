import { useEffect, useState } from 'react';
import { AppError } from '../lib/app-error.ts';
import { CopyButton } from './copy-button.tsx';
import { useDeviceOpened, useSecret, VaultDialog } from './vault-lock.tsx';

const MASK = '••••••••••••';

export interface MaskedSecretProps {
  /** What the secret is, for its button's name: 'password of Arif Hossain'. */
  label: string;
  /** The secret as this device has it; sealed by the device's vault, it is shown once the vault is unlocked (decision 068). */
  value?: string;
  /**
   * Asks for the secret when it is revealed (e.g. a server endpoint that records who looked); its answer is
   * shown instead of `value`. Called again at each reveal, so each look can be recorded.
   */
  reveal?: () => Promise<string>;
  /** Masked again after this long: a screen on a shop floor is seen by others. */
  hideAfterMs?: number;
  /** A Copy button beside it, named 'Copy <copy>': at once for a secret in clear, once shown for a sealed one. */
  copy?: { label: string; size?: 'sm' | 'xs' };
}

type State = { kind: 'hidden' } | { kind: 'loading' } | { kind: 'shown'; text: string } | { kind: 'failed'; message: string };

/** Why a reveal failed, in words: past the staff's reveal budget (decision 160) it says until when. */
function failureMessage(error: unknown): string {
  if (!(error instanceof AppError) || error.code !== 'rate_limited') return 'Could not show it. Try again.';
  const at = new Date(Date.now() + (error.retryAfterMs ?? 0)).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `You have shown many passwords in a short time: Show works again at ${at}.`;
}

/** A secret shown as twelve dots until its Show button is tapped, and masked again by Hide or after a while. */
export function MaskedSecret({ label, value = '', reveal, hideAfterMs = 30_000, copy }: MaskedSecretProps) {
  const [state, setState] = useState<State>({ kind: 'hidden' });
  const secret = useSecret(reveal ? undefined : value);
  // The value in clear when this device has it so: as it came, or opened from the device key's seal.
  const deviceOpened = useDeviceOpened(reveal ? undefined : value);
  const clear = reveal ? null : secret.sealed ? (typeof deviceOpened === 'string' ? deviceOpened : null) : value;
  const [unlocking, setUnlocking] = useState(false);

  useEffect(() => {
    if (state.kind !== 'shown') return;
    const timer = setTimeout(() => setState({ kind: 'hidden' }), hideAfterMs);
    return () => clearTimeout(timer);
  }, [state, hideAfterMs]);

  // Hidden again when the vault locks.
  const shown = state.kind === 'shown' && !secret.locked;

  const toggle = async () => {
    if (shown) return setState({ kind: 'hidden' });
    if (clear !== null) return setState({ kind: 'shown', text: clear });
    if (!reveal && secret.locked) return setUnlocking(true);
    await load(reveal ?? secret.open);
  };

  const load = async (get: () => Promise<string>) => {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'shown', text: await get() });
    } catch (error) {
      console.warn(`Could not reveal the ${label}`, error);
      setState({ kind: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
      <span className="font-mono break-all">
        {state.kind === 'shown' && shown ? (
          state.text
        ) : (
          <>
            <span aria-hidden="true">{MASK}</span>
            <span className="sr-only">hidden</span>
          </>
        )}
      </span>
      <button type="button" className="btn btn-ghost btn-xs" aria-pressed={shown} disabled={state.kind === 'loading'} onClick={() => void toggle()}>
        {state.kind === 'loading' && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {shown ? 'Hide' : secret.locked ? 'Unlock' : 'Show'}
        <span className="sr-only"> {secret.locked ? `to show the ${label}` : label}</span>
      </button>
      {copy && clear !== null && <CopyButton value={clear} label={copy.label} size={copy.size} />}
      {copy && clear === null && shown && state.kind === 'shown' && <CopyButton value={state.text} label={copy.label} size={copy.size} />}
      {unlocking && <VaultDialog mode="unlock" onClose={() => setUnlocking(false)} onDone={() => void load(secret.open)} />}
      {state.kind === 'failed' && (
        <span role="alert" className="text-xs text-error">
          {state.message}
        </span>
      )}
    </span>
  );
}
