import { describe, expect, it } from 'vitest';
import { codeForStatus } from '../../../../edge-api/src/contract/errors.ts';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { AppError } from '../../lib/app-error.ts';
import { deleteFailure, failureText, listFailure, roleUpdateFailure } from './user-errors.ts';
import { countUsers, filterUsers } from './user-filters.ts';

const user = (uid: string, displayName: string, email: string, userRole: User['userRole']): User => ({
  uid,
  displayName,
  email,
  userRole,
  mobile: '0170000000',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
});

const ada = user('aaaa1111-0000-4000-8000-000000000001', 'Ada Lovelace', 'ada@example.com', 'admin');
const grace = user('bbbb2222-0000-4000-8000-000000000002', 'Grace Hopper', 'grace@navy.test', 'moderator');
const linus = user('cccc3333-0000-4000-8000-000000000003', 'Linus', 'linus@kernel.test', 'user');
const nameless = user('dddd4444-0000-4000-8000-000000000004', '', 'someone@example.com', 'user');
const everyone = [ada, grace, linus, nameless];

describe('user search and role filter', () => {
  it('matches the name, email or uid, ignoring case', () => {
    expect(filterUsers(everyone, 'LOVELACE', 'all')).toEqual([ada]);
    expect(filterUsers(everyone, 'Navy.Test', 'all')).toEqual([grace]);
    expect(filterUsers(everyone, 'CCCC3333', 'all')).toEqual([linus]);
    expect(filterUsers(everyone, 'example.com', 'all')).toEqual([ada, nameless]);
    expect(filterUsers(everyone, '  ', 'all')).toEqual(everyone);
    expect(filterUsers(everyone, 'nobody here', 'all')).toEqual([]);
  });

  it('keeps only the chosen role, together with the search', () => {
    expect(filterUsers(everyone, '', 'user')).toEqual([linus, nameless]);
    expect(filterUsers(everyone, '', 'moderator')).toEqual([grace]);
    expect(filterUsers(everyone, 'example', 'admin')).toEqual([ada]);
    expect(filterUsers(everyone, 'grace', 'admin')).toEqual([]);
  });
});

describe('user counts', () => {
  it('counts every user by role', () => {
    expect(countUsers(everyone)).toEqual({ total: 4, admins: 1, moderators: 1, users: 2 });
    expect(countUsers([])).toEqual({ total: 0, admins: 0, moderators: 0, users: 0 });
  });
});

describe('user management errors', () => {
  const refused = (status: number, message = 'refused') => new AppError(codeForStatus(status), message, { status });

  it('treats 401 and 403 as permission failures, in the spec words', () => {
    for (const status of [401, 403]) {
      expect(listFailure(refused(status))).toEqual({ title: 'Access Denied!', text: 'You do not have permission to access this data.' });
      expect(roleUpdateFailure(refused(status))).toEqual({ title: 'Permission Denied!', text: 'You need admin privileges to update user roles.' });
      expect(deleteFailure(refused(status))).toEqual({ title: 'Permission Denied!', text: 'You need admin privileges to delete users.' });
    }
  });

  it("shows the server's 409 message as it comes, and the generic words otherwise", () => {
    const lastAdmin = refused(409, 'You are the last admin: make another user an admin before changing your own role');
    expect(roleUpdateFailure(lastAdmin).text).toBe(lastAdmin.message);
    expect(deleteFailure(refused(409, 'You cannot delete your own account')).text).toBe('You cannot delete your own account');
    expect(listFailure(refused(500))).toEqual({ title: 'Error!', text: 'Failed to fetch users data' });
    expect(roleUpdateFailure(new TypeError('Failed to fetch')).text).toBe('Failed to update user role');
    expect(failureText(deleteFailure(refused(500)))).toBe('Failed to delete user');
    expect(failureText(roleUpdateFailure(refused(500)))).toBe('Error! Failed to update user role');
  });
});
