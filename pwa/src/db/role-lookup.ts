import { api, unwrap, type ApiClient } from '../lib/api-client.ts';
import { isRefusal } from '../lib/app-error.ts';
import type { RoleLookup } from '../lib/authorization.tsx';
import { getUserDb } from './local-db.ts';

const browserOffline = () => typeof navigator !== 'undefined' && !navigator.onLine;

/**
 * The role the dashboard guard decides by: the server's word when it answers (a refusal, 4xx, is a
 * failure), the user record synced to this device when it cannot be reached or is down (5xx, a 503 while
 * its database blinks): an admin's tablet keeps working, and its queued changes with it.
 */
export async function lookupRole(uid: string, client: ApiClient = api, offline: () => boolean = browserOffline): Promise<RoleLookup> {
  const fromDevice = async (): Promise<RoleLookup> => ({ uid, kind: 'unreachable', localUser: (await getUserDb(uid).users.get(uid)) ?? null });
  if (offline()) return fromDevice();
  try {
    const user = await unwrap(client.users[':uid'].$get({ param: { uid } }));
    return { uid, kind: 'role', role: user.userRole };
  } catch (error) {
    return isRefusal(error) ? { uid, kind: 'failed' } : fromDevice();
  }
}
