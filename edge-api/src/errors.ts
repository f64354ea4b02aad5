import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from './lib/logger.ts';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'stock_unavailable'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal';

/** The one error the API throws on purpose; `onError` renders it as `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError(400, 'bad_request', message, details);
export const unauthorized = (message = 'Sign in to continue') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError(403, 'forbidden', message);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
export const conflict = (message: string, details?: unknown) => new ApiError(409, 'conflict', message, details);

export function errorHandler(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof ApiError) {
      return c.json({ error: { code: err.code, message: err.message, details: err.details } }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const code: ErrorCode = status === 413 ? 'payload_too_large' : status < 500 ? 'bad_request' : 'internal';
      return c.json({ error: { code, message: err.message || 'Bad request' } }, status);
    }
    logger.error('unexpected error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json({ error: { code: 'internal', message: 'Something went wrong on our side' } }, 500);
  };
}
