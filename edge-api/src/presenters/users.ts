import type { User } from '../contract/users.ts';
import type { UserRow } from '../db/schema.ts';

export const toUser = (row: UserRow): User => ({
  uid: row.id,
  email: row.email,
  displayName: row.display_name,
  mobile: row.mobile,
  userRole: row.user_role,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  version: Number(row.version),
});
