import { useCallback, useEffect, useState } from 'react';
import { pausedAt, problemOf, type DuplicateCheckProblem } from './duplicate-check-problem.ts';

const CHECK_DELAY_MS = 400;

/** What a duplicate check route takes: the email and the password as typed, each left out when blank. */
export interface CredentialQuery {
  email?: string;
  password?: string;
}

const checkKey = (email: string, password: string) => JSON.stringify([email.trim().toLowerCase(), password]);

function queryOf(email: string, password: string): CredentialQuery {
  const query: CredentialQuery = {};
  if (email.trim()) query.email = email.trim();
  if (password) query.password = password;
  return query;
}

/**
 * The server's duplicate check of credentials being typed (spec section 5), run once the typing pauses:
 * the credentials modal's and Add Wise Stock's. `fetch` asks the route (a stable function: a new one
 * asks again) and `select` turns its answer, or null, into the form's warning.
 *
 * `warning` is for the values as they are now, never for earlier ones; `checkNow` asks again when the
 * last answer was for other values (online only; offline it says nothing); `learn` takes a check that
 * arrived otherwise (a refusal's) for the values as they are now. `problem` says when the values as they
 * are now went unchecked: checks paused past the server's limit (none is sent until its Retry-After has
 * passed, decision 076), or this check failed.
 */
export function useCredentialCheck<Check, Warning>(options: {
  email: string;
  password: string;
  online: boolean;
  fetch: (query: CredentialQuery) => Promise<Check>;
  select: (check: Check | null) => Warning;
}) {
  const { email, password, online, fetch, select } = options;
  const [result, setResult] = useState<{ key: string; check: Check } | null>(null);
  const [failure, setFailure] = useState<{ key: string; problem: DuplicateCheckProblem } | null>(null);
  const currentKey = checkKey(email, password);
  const warning = select(result?.key === currentKey ? result.check : null);
  const answeredKey = result?.key ?? null;
  const pausedUntil = failure && pausedAt(failure.problem) ? failure.problem.until : 0;
  const blank = !email.trim() && !password;

  const found = useCallback((key: string, check: Check) => {
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
      fetch(queryOf(email, password))
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
  }, [email, password, online, fetch, pausedUntil, blank, answeredKey, found, fail]);

  // A pause ends at its Retry-After: the values as they are then are checked.
  useEffect(() => {
    if (!pausedUntil) return;
    const timer = setTimeout(() => setFailure(null), pausedUntil - Date.now());
    return () => clearTimeout(timer);
  }, [pausedUntil]);

  const checkNow = useCallback(async (): Promise<Warning> => {
    if (!online || result?.key === currentKey || blank || pausedAt(failure?.problem)) return warning;
    try {
      const check = await fetch(queryOf(email, password));
      found(currentKey, check);
      return select(check);
    } catch (cause) {
      fail(currentKey, cause);
      return warning;
    }
  }, [online, result, currentKey, blank, failure, warning, email, password, fetch, select, found, fail]);

  // A refusal's check answers for these values; a pause of the checks goes on.
  const learn = useCallback((check: Check) => setResult({ key: currentKey, check }), [currentKey]);

  // Shown while online and the values as they are now have no answer: a pause covers whatever is typed.
  const unanswered = online && !blank && result?.key !== currentKey;
  const problem =
    unanswered && failure && (pausedAt(failure.problem) || (failure.problem.kind === 'failed' && failure.key === currentKey)) ? failure.problem : null;

  return { warning, checkNow, learn, problem };
}
