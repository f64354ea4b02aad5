import type { SyncResponse } from '../../../edge-api/src/contract/sync.ts';
import { api, unwrap, type ApiClient } from '../lib/api-client.ts';
import { AppError, hasCode } from '../lib/app-error.ts';
import { reportSessionEnded } from '../lib/auth.tsx';
import { getSupabase } from '../lib/supabase.ts';

/** How the sync engine reaches the server: the API client and the session behind it. */
export interface SyncTransport {
  api: ApiClient;
  /** Renews the session after a 401; false when there is none to renew. */
  refreshSession(): Promise<boolean>;
  /** Whose session the API client sends: a queue is only pushed under its own user's session. */
  sessionUserId(): Promise<string | null>;
  /** Asks for an image so the service worker keeps it for offline use; absent, images wait until shown. */
  fetchImage?(url: string): Promise<void>;
  /** The server refused this user's session and it could not be renewed: the app says so. */
  sessionEnded?(userId: string): void;
}

/** The browser's: the app's API client and supabase-js's session. */
export const browserTransport: SyncTransport = {
  api,
  async refreshSession() {
    const supabase = await getSupabase();
    const { data, error } = await supabase.auth.refreshSession();
    return !error && !!data.session;
  },
  async sessionUserId() {
    const supabase = await getSupabase();
    const { data } = await supabase.auth.getSession();
    return data.session?.user.id ?? null;
  },
  async fetchImage(url) {
    // Only our own files: the worker keeps those (a cross-origin answer would be opaque and not kept).
    if (new URL(url, location.href).origin !== location.origin) return;
    await fetch(url, { credentials: 'same-origin' });
  },
  sessionEnded: reportSessionEnded,
};

/** The session could not be renewed: the queue stays until the person signs in again. */
const sessionEnded = () => new AppError('session_ended', 'Your session has ended. Sign in again to sync your changes.');

/** Runs a call; a 401 renews the session and runs it once more, and a second 401 ends the session. */
export async function withSession<T>(transport: SyncTransport, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!hasCode(error, 'unauthorized')) throw error;
    if (!(await transport.refreshSession())) throw sessionEnded();
    try {
      return await call();
    } catch (again) {
      if (hasCode(again, 'unauthorized')) throw sessionEnded();
      throw again;
    }
  }
}

/** One page of GET /api/sync. */
export async function fetchChanges(transport: SyncTransport, scope: 'public' | 'private', cursor: number): Promise<SyncResponse> {
  return (await withSession(transport, () => unwrap(transport.api.sync.$get({ query: { scope, cursor: String(cursor) } })))) as SyncResponse;
}
