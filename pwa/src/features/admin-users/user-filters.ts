import type { Role, User } from '../../../../edge-api/src/contract/users.ts';

export type RoleFilter = Role | 'all';

export const roleFilterOptions: readonly { value: RoleFilter; label: string }[] = [
  { value: 'all', label: 'All Roles' },
  { value: 'admin', label: 'Admin' },
  { value: 'moderator', label: 'Moderator' },
  { value: 'user', label: 'User' },
];

export const isRoleFilter = (value: string): value is RoleFilter => roleFilterOptions.some((option) => option.value === value);

/** Case-insensitive substring match on displayName, email or uid (spec: User Management search). */
export function matchesUserSearch(user: Pick<User, 'displayName' | 'email' | 'uid'>, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [user.displayName, user.email, user.uid].some((field) => (field ?? '').toLowerCase().includes(needle));
}

export function filterUsers<T extends Pick<User, 'displayName' | 'email' | 'uid' | 'userRole'>>(users: readonly T[], query: string, role: RoleFilter): T[] {
  return users.filter((user) => (role === 'all' || user.userRole === role) && matchesUserSearch(user, query));
}

export interface UserCounts {
  total: number;
  admins: number;
  moderators: number;
  users: number;
}

/** The count cards, over every user (not only those the search shows). */
export function countUsers(users: readonly Pick<User, 'userRole'>[]): UserCounts {
  const counts: UserCounts = { total: users.length, admins: 0, moderators: 0, users: 0 };
  for (const user of users) {
    if (user.userRole === 'admin') counts.admins += 1;
    else if (user.userRole === 'moderator') counts.moderators += 1;
    else counts.users += 1;
  }
  return counts;
}

/** Newest first, as the server lists them. */
export const newestFirst = (a: Pick<User, 'createdAt' | 'uid'>, b: Pick<User, 'createdAt' | 'uid'>) =>
  (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.uid.localeCompare(b.uid);
