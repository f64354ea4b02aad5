import { AppError } from '../../lib/app-error.ts';

/** The server's reason for refusing a coupon, as it says it on the `couponCode` field; else undefined. */
export function couponReason(error: unknown): string | undefined {
  if (!(error instanceof AppError) || !Array.isArray(error.details)) return undefined;
  return (error.details as { path?: string; message?: string }[]).find((d) => d.path === 'couponCode')?.message || undefined;
}

/** What the coupon field says when a code was not taken: the server's reason, else what went wrong. */
export function couponRefusal(error: unknown): string {
  const reason = couponReason(error);
  if (reason) return reason;
  if (error instanceof AppError && error.code === 'network') return 'The coupon could not be checked: you seem to be offline. Try again when connected.';
  return 'The coupon could not be checked. Try again.';
}
