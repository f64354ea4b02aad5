import type { MiddlewareHandler } from 'hono';
import { runForRequest } from '../lib/request-context.ts';

/** An id a proxy in front may pass on: short, and only characters that cannot forge a log line or a header. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

/** The id of this request: the caller's `X-Request-Id` when well formed, else a new one (issue 28). */
export const requestIdOf = (header: string | undefined): string => (header && WELL_FORMED.test(header) ? header : crypto.randomUUID());

/**
 * Every answer carries `X-Request-Id`, error bodies name it (`c.get('requestId')`), and so does every log
 * line written while the request runs (`lib/request-context.ts`), so an operator finds the log lines of
 * the answer a customer reports.
 */
export const requestId: MiddlewareHandler<{ Variables: { requestId: string } }> = async (c, next) => {
  const id = requestIdOf(c.req.header('x-request-id'));
  c.set('requestId', id);
  await runForRequest(id, next);
  c.res.headers.set('X-Request-Id', id);
};
