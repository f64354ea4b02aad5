import { useCallback, useEffect, useState } from 'react';
import type { CredentialsCheck } from '../../../../edge-api/src/contract/orders.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { pausedAt, problemOf, type DuplicateCheckProblem } from '../../lib/duplicate-check-problem.ts';
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
 * `problem` says when the values as they are now went unchecked: checks paused past the server's limit
 * (none is sent until its Retry-After has passed, decision 076), or this check failed.
 */
export function useDuplicateCheck(email: string, password: string, orderId: string, online: boolean) {
  const [result, setResult] = useState<{ key: string; check: CredentialsCheck } | null>(null);
  const [failure, setFailure] = useState<{ key: string; problem: DuplicateCheckProblem } | null>(null);
  const currentKey = checkKey(email, password);
  const warning = selectDuplicateWarning(result?.key === currentKey ? result.check : null);
  const answeredKey = result?.key ?? null;
  const pausedUntil = failure && pausedAt(failure.problem) ? failure.problem.until : 0;
  const blank = !email.trim() && !password;

  const learn = useCallback((key: string, check: CredentialsCheck) => {
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
      fetchCheck(email, password, orderId)
        .then((check) => {
          if (!cancelled) learn(key, check);
        })
        .catch((cause: unknown) => {
          if (!cancelled) fail(key, cause);
        });
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, password, online, orderId, pausedUntil, blank, answeredKey, learn, fail]);

  // A pause ends at its Retry-After: the values as they are then are checked.
  useEffect(() => {
    if (!pausedUntil) return;
    const timer = setTimeout(() => setFailure(null), pausedUntil - Date.now());
    return () => clearTimeout(timer);
  }, [pausedUntil]);

  const checkNow = useCallback(async (): Promise<DuplicateWarning> => {
    if (!online || result?.key === currentKey || pausedAt(failure?.problem)) return warning;
    try {
      const check = await fetchCheck(email, password, orderId);
      learn(currentKey, check);
      return selectDuplicateWarning(check);
    } catch (cause) {
      fail(currentKey, cause);
      return warning;
    }
  }, [online, result, currentKey, failure, warning, email, password, orderId, learn, fail]);

  // Shown while online and the values as they are now have no answer: a pause covers whatever is typed.
  const unanswered = online && !blank && result?.key !== currentKey;
  const problem = unanswered && failure && (pausedAt(failure.problem) || (failure.problem.kind === 'failed' && failure.key === currentKey)) ? failure.problem : null;

  return { warning, checkNow, problem };
}
