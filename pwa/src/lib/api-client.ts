import { hc } from 'hono/client';
import type { AppType } from '../../../edge-api/src/app.ts';
import { codeForStatus, errorStatus, type ApiErrorBody, type ErrorCode } from '../../../edge-api/src/contract/errors.ts';
import { AppError } from './app-error.ts';
import { getAccessToken } from './supabase.ts';

/** The one typed client of the API, shared by everything that talks to the server. */
export const api = hc<AppType>('/', {
  headers: async (): Promise<Record<string, string>> => {
    const token = await getAccessToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  },
}).api;

/** The typed client's shape: the sync engine takes one bound to the in-process app in tests. */
export type ApiClient = typeof api;

const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(errorStatus, value);

/**
 * Reads a typed answer. A non-2xx answer becomes an AppError with the server's code and message; no
 * answer at all (fetch rejects) an AppError 'network'.
 */
export async function unwrap<T>(request: Promise<{ ok: boolean; status: number; json(): Promise<T> }>): Promise<T> {
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
  throw new AppError(code, body.error?.message ?? `Request failed (${response.status})`, { status: response.status, details: body.error?.details });
}
