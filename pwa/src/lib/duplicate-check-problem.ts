import { hasCode } from './app-error.ts';

/**
 * Why a duplicate check has no answer for the credentials as they are typed now. A form shows it, so an
 * unchecked value is never read as "no duplicates" (decision 076).
 */
export type DuplicateCheckProblem =
  /** Past the server's limit on checks (429): none is sent before `until` (ms since the epoch). */
  | { kind: 'paused'; until: number }
  /** The check of these values failed: no answer, or a refusal. */
  | { kind: 'failed' };

/** How long checks wait after a 429 that named no Retry-After. */
const PAUSE_WITHOUT_RETRY_AFTER_MS = 60_000;

/** What a failed check means for the form: a pause of every check, or a failure of this one. */
export function problemOf(cause: unknown, now = Date.now()): DuplicateCheckProblem {
  if (hasCode(cause, 'rate_limited')) return { kind: 'paused', until: now + (cause.retryAfterMs ?? PAUSE_WITHOUT_RETRY_AFTER_MS) };
  return { kind: 'failed' };
}

/** Whether checks are paused at `now`. */
export const pausedAt = (problem: DuplicateCheckProblem | null | undefined, now = Date.now()): problem is { kind: 'paused'; until: number } =>
  problem?.kind === 'paused' && now < problem.until;

export const PAUSED_TITLE = 'Duplicate checks are paused';
export const FAILED_TITLE = 'The duplicate check could not run';

/** The notice's heading and its explanation, for the form to follow with what that means there. */
export function problemText(problem: DuplicateCheckProblem, now = Date.now()): { title: string; text: string } {
  if (problem.kind === 'failed') return { title: FAILED_TITLE, text: 'These credentials have not been checked for duplicates.' };
  const minutes = Math.max(1, Math.ceil((problem.until - now) / 60_000));
  const at = new Date(problem.until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const wait = minutes === 1 ? 'about a minute' : `about ${minutes} minutes`;
  return {
    title: PAUSED_TITLE,
    text: `Your account ran too many duplicate checks in the last few minutes. They resume in ${wait} (at ${at}); until then, what you type is not checked.`,
  };
}
