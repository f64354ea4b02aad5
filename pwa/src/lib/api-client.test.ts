import { describe, expect, it } from 'vitest';
import { AppError, hasCode, isApiAnswer, isTransient } from './app-error.ts';
import { retryAfterMs, unwrap } from './api-client.ts';

const answer = (status: number, body: string, type = 'application/json') => Promise.resolve(new Response(body, { status, headers: { 'content-type': type } }));
const failureOf = (request: Promise<Response>) =>
  unwrap(request).then(
    () => null,
    (error: unknown) => error,
  );

describe('what the client makes of an answer', () => {
  it("keeps the API's code, message and field details of a refusal", async () => {
    const body = JSON.stringify({ error: { code: 'stock_unavailable', message: 'Taken', details: [{ path: 'stockId', message: 'sold' }] } });
    const error = await failureOf(answer(409, body));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'stock_unavailable', status: 409, message: 'Taken', details: [{ path: 'stockId', message: 'sold' }] });
    expect(hasCode(error, 'stock_unavailable')).toBe(true);
    expect(isTransient(error)).toBe(false);
  });

  it('gives an answer without a code of its own (a proxy page) the code of its status', async () => {
    const error = await failureOf(answer(502, '<html>Bad gateway</html>', 'text/html'));
    expect(error).toMatchObject({ code: 'internal', status: 502 });
    expect(isTransient(error)).toBe(true);
    expect(await failureOf(answer(404, 'nope', 'text/plain'))).toMatchObject({ code: 'not_found', status: 404 });
    expect(await failureOf(answer(400, JSON.stringify({ error: { code: 'made_up', message: 'x' } })))).toMatchObject({ code: 'bad_request' });
  });

  it("calls no answer at all 'network': worth trying again, and not the API's word", async () => {
    const error = await failureOf(Promise.reject(new TypeError('Failed to fetch')));
    expect(error).toMatchObject({ code: 'network' });
    expect(isApiAnswer(error)).toBe(false);
    expect(isTransient(error)).toBe(true);
  });

  it('reads a 2xx answer, and a 204 as nothing', async () => {
    expect(await unwrap(answer(200, JSON.stringify({ ok: 1 })))).toEqual({ ok: 1 });
    expect(await unwrap(Promise.resolve(new Response(null, { status: 204 })))).toBeUndefined();
  });

  it('keeps how long a 429 or 503 asks to wait (Retry-After in seconds or as a date), believed up to 15 minutes', async () => {
    const limited = (retryAfter?: string, status = 429) =>
      failureOf(
        Promise.resolve(
          new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }), {
            status,
            headers: retryAfter ? { 'retry-after': retryAfter } : {},
          }),
        ),
      );
    expect(await limited('120')).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 120_000 });
    expect(await limited('5', 503)).toMatchObject({ retryAfterMs: 5_000 });
    expect(isTransient(await limited('120'))).toBe(true);
    expect(await limited()).toMatchObject({ retryAfterMs: undefined });
    expect(await limited('120', 409)).toMatchObject({ retryAfterMs: undefined });
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 1)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(60_000);
    expect(retryAfterMs('86400')).toBe(15 * 60_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('0')).toBeUndefined();
  });
});
