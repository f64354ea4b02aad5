import { useEffect, useState } from 'react';
import { useSettings } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/**
 * Whether this shop takes orders with just an email (decision 177), for a signed-out visitor: undefined
 * until known. The device's copy of the settings may not have arrived yet on a first visit (this page is
 * not rendered on the server), so when it does not say yes the server is asked once; no answer: no.
 */
export function useGuestCheckout(active: boolean): boolean | undefined {
  const settings = useSettings();
  const [asked, setAsked] = useState<boolean | undefined>(undefined);
  const known = settings.guestCheckout === true;
  useEffect(() => {
    if (!active || known) return;
    let stopped = false;
    unwrap(api.settings.$get())
      .then((answer) => !stopped && setAsked(answer.guestCheckout === true))
      .catch(() => !stopped && setAsked(false));
    return () => {
      stopped = true;
    };
  }, [active, known]);
  return known ? true : asked;
}
