import { hc } from 'hono/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppType } from '@api-types';
import type { User } from '../../../edge-api/src/contract/users.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { decideAccess } from '../lib/authorization.tsx';
import { getUserDb } from './local-db.ts';
import { lookupRole } from './role-lookup.ts';

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

/** The API client of a device signed in with `token`, talking to the real app in-process, or to nobody. */
function clientWith(token: string, network: 'up' | 'down' | 'unavailable' = 'up') {
  let requests = 0;
  const client = hc<AppType>('http://api.test/', {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      requests += 1;
      if (network === 'down') throw new TypeError('Failed to fetch');
      // What the API answers while its database is unreachable (edge-api/src/errors.ts).
      if (network === 'unavailable') {
        return Response.json(
          { error: { code: 'unavailable', message: 'The shop cannot reach its database right now.' } },
          { status: 503, headers: { 'Retry-After': '2' } },
        );
      }
      return api.app.request(new Request(input, init));
    },
    headers: { authorization: `Bearer ${token}` },
  }).api;
  return { client, requests: () => requests };
}

/** The browser does not say it is offline: the lookup asks the server. */
const neverOffline = () => false;

const synced = (user: TestUser, userRole: User['userRole']): User => ({
  uid: user.id,
  email: user.email,
  displayName: 'On this device',
  mobile: '',
  userRole,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
});

describe('lookupRole: the role the dashboard guard decides by', () => {
  it('answers the role the server has for the user, whatever this device has synced', async () => {
    for (const role of ['admin', 'moderator', 'user'] as const) {
      const user = await api.createUser(role);
      await getUserDb(user.id).users.put(synced(user, role === 'user' ? 'admin' : 'user'));
      expect(await lookupRole(user.id, clientWith(user.token).client, neverOffline)).toEqual({ uid: user.id, kind: 'role', role });
    }
  });

  it('fails (and the guard denies) when the server refuses: no user record, or a token it does not accept', async () => {
    const { id, token: withoutRecord } = await api.createAccount();
    const lookup = await lookupRole(id, clientWith(withoutRecord).client, neverOffline);
    expect(lookup).toEqual({ uid: id, kind: 'failed' });
    expect(decideAccess(id, lookup)).toEqual({ kind: 'denied', reason: 'failed' });

    const admin = await api.createUser('admin');
    expect(await lookupRole(admin.id, clientWith('not-a-token').client, neverOffline)).toEqual({ uid: admin.id, kind: 'failed' });
  });

  it('lets the user record synced to this device decide when the server cannot be reached', async () => {
    const admin = await api.createUser('admin');
    await getUserDb(admin.id).users.put(synced(admin, 'admin'));
    const lookup = await lookupRole(admin.id, clientWith(admin.token, 'down').client, neverOffline);
    expect(lookup).toMatchObject({ uid: admin.id, kind: 'unreachable', localUser: { uid: admin.id, userRole: 'admin' } });
    expect(decideAccess(admin.id, lookup)).toEqual({ kind: 'allowed', role: 'admin' });

    const stranger = await api.createUser('admin');
    expect(await lookupRole(stranger.id, clientWith(stranger.token, 'down').client, neverOffline)).toEqual({
      uid: stranger.id,
      kind: 'unreachable',
      localUser: null,
    });
  });

  it('lets the synced user record decide while the server answers 503: nobody is locked out or signed out', async () => {
    const admin = await api.createUser('admin');
    await getUserDb(admin.id).users.put(synced(admin, 'admin'));
    const lookup = await lookupRole(admin.id, clientWith(admin.token, 'unavailable').client, neverOffline);
    expect(lookup).toMatchObject({ uid: admin.id, kind: 'unreachable', localUser: { userRole: 'admin' } });
    expect(decideAccess(admin.id, lookup)).toEqual({ kind: 'allowed', role: 'admin' });
  });

  it('asks nothing of the network while the browser says it is offline', async () => {
    const moderator = await api.createUser('moderator');
    await getUserDb(moderator.id).users.put(synced(moderator, 'moderator'));
    const { client, requests } = clientWith(moderator.token);
    const lookup = await lookupRole(moderator.id, client, () => true);
    expect(lookup).toMatchObject({ kind: 'unreachable', localUser: { userRole: 'moderator' } });
    expect(requests()).toBe(0);
  });
});
