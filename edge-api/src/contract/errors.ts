/**
 * Every code an API error carries, with the HTTP status it is answered with: a closed list, so the PWA
 * can switch on `code` with the compiler checking it, and the status always follows from the code.
 */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** An admin tried to change their own role or delete their own account: another admin must do it. */
  own_account: 403,
  not_found: 404,
  conflict: 409,
  /** The Wise stock chosen for a delivery was taken meanwhile. */
  stock_unavailable: 409,
  /** The order already carries delivered credentials; only a delivery with `replace: true` changes them. */
  already_delivered: 409,
  /** The stock's email or password is already in stock or delivered; `details` is the StockDuplicateCheck. Send overrideDuplicates to add it anyway. */
  duplicate_credentials: 409,
  /** A problem report on an order that was not delivered (decision 063). */
  not_delivered: 409,
  /** The order's service gave no warranty: problems are not reported through the app. */
  no_warranty: 409,
  /** The order's warranty window ended; `details.warrantyEndsAt` says when. */
  warranty_expired: 409,
  /** A problem with this order is already reported and waits for staff. */
  report_open: 409,
  /** Staff answered a report that is no longer open. */
  no_open_report: 409,
  /** The stock was replaced as faulty on an order and can never be made available again. */
  stock_faulty: 409,
  /** An idempotency key was reused with a different request body (Stripe answers the same). */
  idempotency_mismatch: 422,
  /** The change would leave the shop without an admin. */
  last_admin: 409,
  /** A device vault's PIN was wrong (decision 181); `details.left` says how many tries remain before it is destroyed. */
  wrong_pin: 403,
  /** The account keeps its delivered secrets in a device vault: this needs the vault unlocked (an `X-Vault-Unlock` token, decision 182). */
  vault_locked: 403,
  /** Only a session signed in within the last few minutes (or a vault unlock) may do this: sign in again. */
  reauth_required: 403,
  /** The device vault was destroyed after too many wrong PINs; it must be made again (decision 181). */
  vault_destroyed: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  /** The database cannot be reached or does not answer in time: try again after `Retry-After` seconds. */
  unavailable: 503,
  /** The deployment is not set up right (an environment variable, a data key, a Storage bucket). */
  misconfigured: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** One field at fault in a 400 answer: 'email', 'socialLinks.facebook', 'wallets.0.number'. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The body of every error answer. `details` of a 400 lists the fields at fault (FieldIssue[]). */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** The code for an answer that carries none of its own (a proxy's 502, a body that is not JSON). */
export function codeForStatus(status: number): ErrorCode {
  const known = (Object.keys(errorStatus) as ErrorCode[]).find((code) => errorStatus[code] === status);
  return known ?? (status >= 500 ? 'internal' : 'bad_request');
}
