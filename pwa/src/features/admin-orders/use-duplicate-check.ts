import { useCallback, useEffect, useState } from 'react';
import type { CredentialsCheck } from '../../../../edge-api/src/contract/orders.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { selectDuplicateWarning, type DuplicateWarning } from './duplicate-warning.ts';

const CHECK_DELAY_MS = 400;

const checkKey = (email: string, password: string) => JSON.stringify([email.trim().toLowerCase(), password]);

function fetchCheck(email: string, password: string, excludeOrderId: string): Promise<CredentialsCheck> {
  const query: { email?: string; password?: string; excludeOrderId: string } = { excludeOrderId };
  if (email.trim()) query.email = email.trim();
  if (password) query.password = password;
  return unwrap(api.admin.credentials.check.$get({ query }));
}

/**
 * The server's duplicate check of credentials about to be delivered (spec section 5), run while the admin
 * types, once the typing pauses. `warning` is for the values as they are now, never for earlier ones;
 * `checkNow` asks again when the last answer was for other values (online only; offline it says nothing).
 */
export function useDuplicateCheck(email: string, password: string, orderId: string, online: boolean) {
  const [result, setResult] = useState<{ key: string; check: CredentialsCheck } | null>(null);
  const currentKey = checkKey(email, password);
  const warning = selectDuplicateWarning(result?.key === currentKey ? result.check : null);

  useEffect(() => {
    if (!online || (!email.trim() && !password)) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchCheck(email, password, orderId)
        .then((check) => {
          if (!cancelled) setResult({ key: checkKey(email, password), check });
        })
        .catch((cause: unknown) => console.warn('Duplicate check failed', cause));
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, password, online, orderId]);

  const checkNow = useCallback(async (): Promise<DuplicateWarning> => {
    if (!online || result?.key === currentKey) return warning;
    try {
      const check = await fetchCheck(email, password, orderId);
      setResult({ key: currentKey, check });
      return selectDuplicateWarning(check);
    } catch (cause) {
      console.warn('Duplicate check failed', cause);
      return warning;
    }
  }, [online, result, currentKey, warning, email, password, orderId]);

  return { warning, checkNow };
}
