export type Role = 'user' | 'moderator' | 'admin';
export const roles: readonly Role[] = ['user', 'moderator', 'admin'];

/** Staff process orders: moderators and admins (DESIGN section 3). */
export type StaffRole = Extract<Role, 'admin' | 'moderator'>;
export const isStaffRole = (role: Role | null | undefined): role is StaffRole => role === 'admin' || role === 'moderator';

export interface User {
  uid: string;
  email: string;
  displayName: string;
  mobile: string;
  userRole: Role;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A password's shortest length on the auth server (DESIGN section 3); the registration form asks for it first. */
export const PASSWORD_MIN_CHARS = 6;

/** Longest accepted values (characters); the registration form's fields stop there too. */
export const userLimits = { displayName: 120, mobile: 15 } as const;
