import * as z from 'zod';
import { emailText, expectedVersion, mobileText, nameText, oneOf, uuid } from './fields.ts';
import { roles, userLimits } from './users.ts';

export const uidParam = z.object({ uid: uuid });

/** POST /api/users: the user record of the account just signed up. */
export const registerBody = z.object({
  uid: uuid,
  email: emailText,
  displayName: nameText(userLimits.displayName),
  mobile: mobileText(userLimits.mobile),
  // userRole and createdAt are read by nobody: the server decides both.
  userRole: z.unknown().optional(),
  createdAt: z.unknown().optional(),
});

/** PUT /api/users/{uid}/role */
export const roleBody = z.object({
  userRole: oneOf(roles),
  version: expectedVersion,
});

/**
 * PUT /api/users/{uid}: the signed-in user's own name and mobile. The email is not in the body: the
 * server copies the address the auth server vouches for (it changes only through the mailed link).
 */
export const profileBody = z.object({
  displayName: nameText(userLimits.displayName),
  mobile: mobileText(userLimits.mobile),
  version: expectedVersion,
});
