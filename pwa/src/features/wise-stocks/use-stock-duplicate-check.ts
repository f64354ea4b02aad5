import { useCallback, useEffect, useState } from 'react';
import type { StockDuplicateCheck } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { selectStockDuplicateWarning, type StockDuplicateWarning } from './stock-duplicate-warning.ts';

const CHECK_DELAY_MS = 400;

const checkKey = (email: string, password: string) => JSON.stringify([email.trim().toLowerCase(), password]);

function fetchCheck(email: string, password: string): Promise<StockDuplicateCheck> {
  const query: { email?: string; password?: string } = {};
  if (email.trim()) query.email = email.trim();
  if (password) query.password = password;
  return unwrap(api['wise-stocks'].check.$get({ query }));
}

/**
 * The server's check of a stock about to be added (in stock or delivered already), run once the typing
 * pauses. `warning` is for the values as they are now; `checkNow` asks when the last answer was for other
 * values; `learn` takes the check a refusal (409 duplicate_credentials) carried.
 */
export function useStockDuplicateCheck(email: string, password: string, online: boolean) {
  const [result, setResult] = useState<{ key: string; check: StockDuplicateCheck } | null>(null);
  const currentKey = checkKey(email, password);
  const warning = selectStockDuplicateWarning(result?.key === currentKey ? result.check : null);

  useEffect(() => {
    if (!online || (!email.trim() && !password)) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchCheck(email, password)
        .then((check) => {
          if (!cancelled) setResult({ key: checkKey(email, password), check });
        })
        .catch((cause: unknown) => console.warn('Duplicate check failed', cause));
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, password, online]);

  const checkNow = useCallback(async (): Promise<StockDuplicateWarning> => {
    if (!online || result?.key === currentKey || (!email.trim() && !password)) return warning;
    try {
      const check = await fetchCheck(email, password);
      setResult({ key: currentKey, check });
      return selectStockDuplicateWarning(check);
    } catch (cause) {
      console.warn('Duplicate check failed', cause);
      return warning;
    }
  }, [online, result, currentKey, warning, email, password]);

  const learn = useCallback((check: StockDuplicateCheck) => setResult({ key: currentKey, check }), [currentKey]);

  return { warning, checkNow, learn };
}
