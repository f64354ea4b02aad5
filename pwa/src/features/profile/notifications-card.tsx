import { useEffect, useId, useState } from 'react';
import { ALLOW_STEPS, disablePush, enablePush, pushProblem, pushState, type PushState } from '../../lib/web-push.ts';

const explain: Record<PushState, string> = {
  unsupported: 'This browser cannot show notifications from the shop. On an iPhone or iPad, add the shop to your Home Screen and open it from there.',
  unavailable: 'Notifications are not set up on this shop yet.',
  denied: `Notifications are blocked for this site. ${ALLOW_STEPS}`,
  off: 'Off on this device.',
  on: 'On for this device.',
};

/** The browser's question was closed without an answer: nothing is blocked, it can be asked again. */
export const PROMPT_DISMISSED = 'The browser’s question was closed without allowing notifications. Turn this on again and choose Allow.';
const TURN_OFF_FAILED = 'Could not turn notifications off. Check your connection and try again.';

/**
 * The profile's switch for web push on this device (decision 067). Customers are told when an order is
 * delivered, replaced or changes status; staff of new orders and payment proofs. Without it, the order
 * card and the staff bell still show everything.
 */
export function NotificationsCard({ staff }: { staff: boolean }) {
  const [state, setState] = useState<PushState | 'checking'>('checking');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const switchId = useId();
  const helpId = useId();

  useEffect(() => {
    let cancelled = false;
    pushState()
      .then((found) => !cancelled && setState(found))
      .catch(() => !cancelled && setState('off'));
    return () => {
      cancelled = true;
    };
  }, []);

  const toggle = async () => {
    setProblem('');
    setBusy(true);
    try {
      if (state === 'on') {
        await disablePush();
        setState('off');
      } else {
        const reached = await enablePush();
        setState(reached);
        if (reached === 'off') setProblem(PROMPT_DISMISSED);
      }
    } catch (cause) {
      console.warn('Notifications could not be changed', cause);
      // The browser's own words ("Registration failed - push service error") mean nothing to a customer.
      setProblem(state === 'on' ? TURN_OFF_FAILED : pushProblem(cause));
      setState(await pushState().catch((): PushState => 'off'));
    } finally {
      setBusy(false);
    }
  };

  const what = staff ? 'new orders and payment proofs to check' : 'when an order is delivered, replaced or changes status';
  const blocked = state === 'unsupported' || state === 'unavailable' || state === 'denied' || state === 'checking';
  return (
    <section aria-labelledby="notifications-title" className="card border border-base-300 bg-base-100 shadow-md">
      <div className="card-body gap-4">
        <h2 id="notifications-title" className="card-title">
          Notifications
        </h2>
        <p className="text-base-content/80">
          Get a notification on this device about {what}, even when the app is closed. Your orders{staff ? ' and the bell' : ''} show everything either way.
        </p>
        <div className="flex items-center gap-3">
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            className="toggle toggle-primary"
            checked={state === 'on'}
            disabled={busy || blocked}
            aria-describedby={helpId}
            aria-busy={busy}
            onChange={() => void toggle()}
          />
          <label htmlFor={switchId} className="font-medium">
            Notifications on this device
          </label>
        </div>
        <p id={helpId} aria-live="polite" className="text-sm text-base-content/80">
          {state === 'checking' ? 'Checking this device…' : busy ? 'Saving…' : explain[state]}
        </p>
        {problem && (
          <p role="alert" className="text-sm text-error">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
