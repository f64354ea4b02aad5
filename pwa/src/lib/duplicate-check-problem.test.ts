import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import { FAILED_TITLE, PAUSED_TITLE, pausedAt, problemOf, problemText } from './duplicate-check-problem.ts';

const now = Date.UTC(2026, 10, 24, 19, 0, 1);

describe('a duplicate check that did not run (decision 076)', () => {
  it("is a pause until the server's Retry-After after a 429, and a failure of this check otherwise", () => {
    const limited = new AppError('rate_limited', 'Too many requests: try again in 599 seconds', { status: 429, retryAfterMs: 599_000 });
    expect(problemOf(limited, now)).toEqual({ kind: 'paused', until: now + 599_000 });
    // A 429 that named no wait still pauses, for a minute.
    expect(problemOf(new AppError('rate_limited', 'Too many requests', { status: 429 }), now)).toEqual({ kind: 'paused', until: now + 60_000 });
    expect(problemOf(new AppError('network', 'Failed to fetch'), now)).toEqual({ kind: 'failed' });
    expect(problemOf(new AppError('bad_request', 'password: too long', { status: 400 }), now)).toEqual({ kind: 'failed' });
    expect(problemOf(new Error('boom'), now)).toEqual({ kind: 'failed' });
  });

  it('is paused only until then', () => {
    const paused = { kind: 'paused' as const, until: now + 1_000 };
    expect(pausedAt(paused, now)).toBe(true);
    expect(pausedAt(paused, now + 1_000)).toBe(false);
    expect(pausedAt({ kind: 'failed' }, now)).toBe(false);
    expect(pausedAt(null, now)).toBe(false);
  });

  it('says checks are paused, for how long and until when, and that what is typed meanwhile is not checked', () => {
    const until = now + 599_000;
    const at = new Date(until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(problemText({ kind: 'paused', until }, now)).toEqual({
      title: PAUSED_TITLE,
      text: `Your account ran too many duplicate checks in the last few minutes. They resume in about 10 minutes (at ${at}); until then, what you type is not checked.`,
    });
    expect(problemText({ kind: 'paused', until: now + 61_000 }, now).text).toContain('resume in about 2 minutes');
    expect(problemText({ kind: 'paused', until: now + 20_000 }, now).text).toContain('resume in about a minute');
    // Never "no duplicates": the words say the values went unchecked.
    expect(problemText({ kind: 'failed' }, now)).toEqual({ title: FAILED_TITLE, text: 'These credentials have not been checked for duplicates.' });
  });
});
