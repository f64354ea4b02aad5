import { hc } from 'hono/client';
import type { AppType } from '@api-types';
import { codeForStatus, errorStatus, type ApiErrorBody, type ErrorCode } from '../../../edge-api/src/contract/errors.ts';
import { AppError } from './app-error.ts';
import { getAccessToken } from './supabase.ts';
import { vaultHeaders } from './vault-headers.ts';

/** The one typed client of the API, shared by everything that talks to the server. */
export const api = hc<AppType>('/', {
  headers: async (): Promise<Record<string, string>> => {
    const token = await getAccessToken();
    return token ? { authorization: `Bearer ${token}`, ...vaultHeaders() } : {};
  },
}).api;

/** The typed client's shape: the sync engine takes one bound to the in-process app in tests. */
export type ApiClient = typeof api;

const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(errorStatus, value);

/** A wait the server asks for longer than this is not believed (a proxy's mistake must not freeze the queue). */
const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Retry-After as seconds or an HTTP date; undefined when absent, past or not sane. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : undefined;
}

/**
 * Reads a typed answer. A non-2xx answer becomes an AppError with the server's code and message (and its
 * Retry-After on a 429 or 503); no answer at all (fetch rejects) an AppError 'network'.
 */
export async function unwrap<T>(
  request: Promise<{ ok: boolean; status: number; headers?: { get(name: string): string | null }; json(): Promise<T> }>,
): Promise<T> {
  let response: Awaited<typeof request>;
  try {
    response = await request;
  } catch (cause) {
    throw new AppError('network', 'Could not reach the server', { cause });
  }
  if (response.ok) return response.status === 204 ? (undefined as T) : response.json();
  let body: Partial<ApiErrorBody> = {};
  try {
    body = (await response.json()) as unknown as ApiErrorBody;
  } catch {
    // A body that is not JSON (a proxy's error page): the status says enough.
  }
  const code = isErrorCode(body.error?.code) ? body.error.code : codeForStatus(response.status);
  const wait = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers?.get('retry-after')) : undefined;
  throw new AppError(code, body.error?.message ?? `Request failed (${response.status})`, {
    status: response.status,
    details: body.error?.details,
    retryAfterMs: wait,
  });
}
