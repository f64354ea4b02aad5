import { describe, expect, it } from 'vitest';
import type { User } from '../../../edge-api/src/contract/users.ts';
import { can, decideAccess, policies, type RoleLookup } from './authorization.tsx';

const uid = '00000000-0000-4000-8000-000000000001';
const localUser = (userRole: User['userRole'], id = uid): User => ({
  uid: id,
  email: 'a@demo.test',
  displayName: 'A',
  mobile: '',
  userRole,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  version: 1,
});

describe('dashboard guard', () => {
  it('lets admins and moderators in, by the role the server gives', () => {
    expect(decideAccess(uid, { uid, kind: 'role', role: 'admin' })).toEqual({ kind: 'allowed', role: 'admin' });
    expect(decideAccess(uid, { uid, kind: 'role', role: 'moderator' })).toEqual({ kind: 'allowed', role: 'moderator' });
  });

  it('turns away a customer', () => {
    expect(decideAccess(uid, { uid, kind: 'role', role: 'user' })).toEqual({ kind: 'denied', reason: 'role' });
  });

  it('turns away anyone whose role fetch failed, saying so apart from a customer', () => {
    expect(decideAccess(uid, { uid, kind: 'failed' })).toEqual({ kind: 'denied', reason: 'failed' });
  });

  it('offline, lets staff in by the user record synced to this device', () => {
    const offline = (user: User | null): RoleLookup => ({ uid, kind: 'unreachable', localUser: user });
    expect(decideAccess(uid, offline(localUser('admin')))).toEqual({ kind: 'allowed', role: 'admin' });
    expect(decideAccess(uid, offline(localUser('moderator')))).toEqual({ kind: 'allowed', role: 'moderator' });
    expect(decideAccess(uid, offline(null))).toEqual({ kind: 'denied', reason: 'failed' });
    expect(decideAccess(uid, offline(localUser('user')))).toEqual({ kind: 'denied', reason: 'role' });
    expect(decideAccess(uid, offline(localUser('admin', 'someone-else')))).toEqual({ kind: 'denied', reason: 'failed' });
  });

  it('waits for the role of the user signed in now, not a previous one', () => {
    expect(decideAccess(uid, undefined)).toEqual({ kind: 'checking' });
    expect(decideAccess(uid, { uid: 'previous', kind: 'role', role: 'admin' })).toEqual({ kind: 'checking' });
  });
});

describe('dashboard permissions', () => {
  it('lets moderators process orders and nothing else; admins everything (DESIGN section 3)', () => {
    for (const permission of Object.keys(policies) as (keyof typeof policies)[]) {
      expect(can('admin', permission), permission).toBe(true);
      expect(can('moderator', permission), permission).toBe(permission === 'orders:process');
    }
  });
});
