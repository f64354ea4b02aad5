import { useEffect, useState } from 'react';

const MASK = '••••••••••••';

export interface MaskedSecretProps {
  /** What the secret is, for its button's name: 'password of Arif Hossain'. */
  label: string;
  /** The secret as this device has it. */
  value?: string;
  /**
   * Asks for the secret when it is revealed (e.g. a server endpoint that records who looked); its answer is
   * shown instead of `value`. Called again at each reveal, so each look can be recorded.
   */
  reveal?: () => Promise<string>;
  /** Masked again after this long: a screen on a shop floor is seen by others. */
  hideAfterMs?: number;
}

type State = { kind: 'hidden' } | { kind: 'loading' } | { kind: 'shown'; text: string } | { kind: 'failed' };

/** A secret shown as twelve dots until its Show button is tapped, and masked again by Hide or after a while. */
export function MaskedSecret({ label, value = '', reveal, hideAfterMs = 30_000 }: MaskedSecretProps) {
  const [state, setState] = useState<State>({ kind: 'hidden' });

  useEffect(() => {
    if (state.kind !== 'shown') return;
    const timer = setTimeout(() => setState({ kind: 'hidden' }), hideAfterMs);
    return () => clearTimeout(timer);
  }, [state, hideAfterMs]);

  const toggle = async () => {
    if (state.kind === 'shown') return setState({ kind: 'hidden' });
    if (!reveal) return setState({ kind: 'shown', text: value });
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'shown', text: await reveal() });
    } catch (error) {
      console.warn(`Could not reveal the ${label}`, error);
      setState({ kind: 'failed' });
    }
  };

  const shown = state.kind === 'shown';
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
      <span className="font-mono break-all">
        {shown ? (
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
        {shown ? 'Hide' : 'Show'}
        <span className="sr-only"> {label}</span>
      </button>
      {state.kind === 'failed' && (
        <span role="alert" className="text-xs text-error">
          Could not show it. Try again.
        </span>
      )}
    </span>
  );
}
