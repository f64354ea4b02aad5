import type { ErrorCode } from '../../../edge-api/src/contract/errors.ts';

/** What can go wrong on this device, beside the codes the API answers with (contract/errors.ts). */
export type DeviceErrorCode =
  /** No answer at all: offline, or the server could not be reached. Try again later. */
  | 'network'
  /** The session could not be renewed: the person has to sign in again. */
  | 'session_ended'
  /** The row a change is about is not on this device (never synced, or deleted meanwhile). */
  | 'not_on_device'
  /** A HEIC photo could not be turned into a JPEG in the browser. */
  | 'conversion_failed'
  /** A sealed secret was asked for while the device's vault is locked (decision 068). */
  | 'vault_locked';

export type AppErrorCode = ErrorCode | DeviceErrorCode;

/**
 * The one error type of the PWA: the API's refusals and what goes wrong on the device alike. Screens
 * decide by `code`, which the compiler checks against the contract, never by the message's words.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: AppErrorCode;
  /** The HTTP status when the API answered; absent when nothing came back or the device refused first. */
  readonly status?: number;
  /** A 400's fields at fault (FieldIssue[]), as the API sent them. */
  readonly details?: unknown;
  /** How long the server asked us to wait before trying again (its Retry-After on a 429 or 503). */
  readonly retryAfterMs?: number;

  constructor(code: AppErrorCode, message: string, options: { status?: number; details?: unknown; cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.details = options.details;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Whether `error` is an AppError with one of `codes`. */
export const hasCode = (error: unknown, ...codes: AppErrorCode[]): error is AppError => error instanceof AppError && codes.includes(error.code);

/** The API answered, and refused: the request got through (as opposed to a network failure). */
export const isApiAnswer = (error: unknown): error is AppError & { status: number } => error instanceof AppError && error.status !== undefined;

/** Worth trying again later (no answer, or the server failed or was busy), rather than refused for good. */
export const isTransient = (error: unknown): boolean => !isApiAnswer(error) || error.status >= 500 || error.status === 408 || error.status === 429;

/** The API refused the request itself (a 4xx): its message says why, in words fit to show. */
export const isRefusal = (error: unknown): error is AppError & { status: number } => isApiAnswer(error) && error.status < 500;
