import { useCallback, useEffect, useState } from 'react';
import type { StockDuplicateCheck } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { pausedAt, problemOf, type DuplicateCheckProblem } from '../../lib/duplicate-check-problem.ts';
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
 * values; `learn` takes the check a refusal (409 duplicate_credentials) carried. `problem` says when the
 * values as they are now went unchecked: checks paused past the server's limit (none is sent until its
 * Retry-After has passed, decision 076), or this check failed.
 */
export function useStockDuplicateCheck(email: string, password: string, online: boolean) {
  const [result, setResult] = useState<{ key: string; check: StockDuplicateCheck } | null>(null);
  const [failure, setFailure] = useState<{ key: string; problem: DuplicateCheckProblem } | null>(null);
  const currentKey = checkKey(email, password);
  const warning = selectStockDuplicateWarning(result?.key === currentKey ? result.check : null);
  const answeredKey = result?.key ?? null;
  const pausedUntil = failure && pausedAt(failure.problem) ? failure.problem.until : 0;
  const blank = !email.trim() && !password;

  const found = useCallback((key: string, check: StockDuplicateCheck) => {
    setResult({ key, check });
    setFailure(null);
  }, []);
  const fail = useCallback((key: string, cause: unknown) => {
    console.warn('Duplicate check failed', cause);
    setFailure({ key, problem: problemOf(cause) });
  }, []);

  useEffect(() => {
    const key = checkKey(email, password);
    // Paused: nothing is sent until the pause ends (pausedUntil back to 0), which checks the values as they are then.
    if (!online || blank || pausedUntil > 0 || answeredKey === key) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchCheck(email, password)
        .then((check) => {
          if (!cancelled) found(key, check);
        })
        .catch((cause: unknown) => {
          if (!cancelled) fail(key, cause);
        });
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, password, online, pausedUntil, blank, answeredKey, found, fail]);

  // A pause ends at its Retry-After: the values as they are then are checked.
  useEffect(() => {
    if (!pausedUntil) return;
    const timer = setTimeout(() => setFailure(null), pausedUntil - Date.now());
    return () => clearTimeout(timer);
  }, [pausedUntil]);

  const checkNow = useCallback(async (): Promise<StockDuplicateWarning> => {
    if (!online || result?.key === currentKey || blank || pausedAt(failure?.problem)) return warning;
    try {
      const check = await fetchCheck(email, password);
      found(currentKey, check);
      return selectStockDuplicateWarning(check);
    } catch (cause) {
      fail(currentKey, cause);
      return warning;
    }
  }, [online, result, currentKey, blank, failure, warning, email, password, found, fail]);

  // A refusal's check answers for these values; a pause of the checks goes on.
  const learn = useCallback((check: StockDuplicateCheck) => setResult({ key: currentKey, check }), [currentKey]);

  // Shown while online and the values as they are now have no answer: a pause covers whatever is typed.
  const unanswered = online && !blank && result?.key !== currentKey;
  const problem = unanswered && failure && (pausedAt(failure.problem) || (failure.problem.kind === 'failed' && failure.key === currentKey)) ? failure.problem : null;

  return { warning, checkNow, learn, problem };
}
