import { hc } from 'hono/client';
import type { AppType } from '../../../edge-api/src/app.ts';
import type { ApiErrorBody } from '../../../edge-api/src/contract.ts';
import { getAccessToken } from './supabase.ts';

/** An API answer that was not 2xx, with the server's code and message. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The one typed client of the API, shared by everything that talks to the server. */
export const api = hc<AppType>('/', {
  headers: async (): Promise<Record<string, string>> => {
    const token = await getAccessToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  },
}).api;

/** Reads a typed answer, turning a non-2xx one into an ApiRequestError. */
export async function unwrap<T>(request: Promise<{ ok: boolean; status: number; json(): Promise<T> }>): Promise<T> {
  const response = await request;
  if (response.ok) return response.status === 204 ? (undefined as T) : response.json();
  let body: Partial<ApiErrorBody> = {};
  try {
    body = (await response.json()) as unknown as ApiErrorBody;
  } catch {
    // A body that is not JSON: the status says enough.
  }
  throw new ApiRequestError(response.status, body.error?.code ?? 'http_error', body.error?.message ?? `Request failed (${response.status})`, body.error?.details);
}
