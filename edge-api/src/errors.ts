import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { codeForStatus, errorStatus, type ErrorCode } from './contract/errors.ts';
import { databaseFault, RETRY_AFTER_SECONDS, retryAfterSeconds } from './db/faults.ts';
import type { Logger } from './lib/logger.ts';

/** The one error the API throws on purpose; `onError` renders it as `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
  }

  /** Follows from the code (contract/errors.ts), so a code is never answered with two statuses. */
  get status(): ContentfulStatusCode {
    return errorStatus[this.code];
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError('bad_request', message, details);
export const unauthorized = (message = 'Sign in to continue') => new ApiError('unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError('forbidden', message);
export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
export const conflict = (message: string, details?: unknown) => new ApiError('conflict', message, details);
/** An answer that says when to ask again: `onError` adds Retry-After. */
class RetryLaterError extends ApiError {
  readonly retryAfterSeconds: number;

  constructor(code: 'rate_limited' | 'unavailable', message: string, retryAfterSeconds: number) {
    super(code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Too many requests from one caller (decision 049): 429 with Retry-After. */
export class RateLimitedError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', `Too many requests: try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}

/** Something the API needs does not answer now (decision 114): 503 `unavailable` with Retry-After. */
export const unavailable = (message: string, retryAfter = RETRY_AFTER_SECONDS) => new RetryLaterError('unavailable', message, retryAfter);
/** The deployment is not set up right (an environment variable, a data key, a Storage bucket): nothing the caller can fix. */
export const misconfigured = (message: string, details?: unknown) => new ApiError('misconfigured', message, details);

export function errorHandler(logger: Logger) {
  return (err: Error, c: Context) => {
    // The request's id (when the entry set one) in every error body and log line, so a report finds its logs.
    const requestId = c.get('requestId') as string | undefined;
    const ids = requestId ? { requestId } : {};
    if (err instanceof ApiError) {
      if (err instanceof RetryLaterError) c.header('Retry-After', String(err.retryAfterSeconds));
      return c.json({ error: { code: err.code, message: err.message, details: err.details, ...ids } }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      return c.json({ error: { code: codeForStatus(status), message: err.message || 'Bad request', ...ids } }, status);
    }
    const fault = databaseFault(err);
    if (fault) {
      // The database blinked, stalls or lacks a resource (disk, memory, connections, a writable file
      // system): say so, and when to try again; one line naming the fault, no stack (decisions 042, 114).
      // The SQLSTATE or Node's error code, when there is one.
      const { code } = err as { code?: unknown };
      logger.warn('database unavailable', {
        fault,
        ...(typeof code === 'string' && { code }),
        method: c.req.method,
        path: c.req.path,
        error: err.message,
        ...ids,
      });
      c.header('Retry-After', String(retryAfterSeconds(fault)));
      return c.json(
        { error: { code: 'unavailable' satisfies ErrorCode, message: 'The shop cannot use its database right now. Please try again shortly.', ...ids } },
        503,
      );
    }
    logger.error('unexpected error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err), ...ids });
    return c.json({ error: { code: 'internal' satisfies ErrorCode, message: 'Something went wrong on our side', ...ids } }, 500);
  };
}
