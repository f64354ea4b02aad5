import { Hono } from 'hono';
import type * as z from 'zod';
import type { TokenClaims } from '../auth/verifier.ts';
import { createMiddleware } from 'hono/factory';
import { profileBody, registerBody, roleBody, uidParam } from '../contract/user-requests.ts';
import type { Role } from '../contract/users.ts';
import { listPageQuery } from '../contract/list-pages.ts';
import { recordAudit } from '../db/audit.ts';
import type { UserRow } from '../db/schema.ts';
import {
  findUser,
  findUserIncludingDeleted,
  insertUser,
  listUsersPage,
  lockAdminIds,
  lockUser,
  setUserRole,
  softDeleteUser,
  updateProfile,
} from '../db/users.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { answerListPage } from '../operations/list-page.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { isStaff, requireAdmin, requireAuth, requireRole, requireStaff, type AppEnv } from '../middleware/session.ts';
import { toUser } from '../presenters/users.ts';

/**
 * The shop keeps at least one admin (checked under lockAdminIds, so two admins acting at once take turns).
 * Only the last admin can be the target here, as only an admin calls: `before` says what to do first.
 */
function assertNotLastAdmin(targetRole: Role, admins: string[], before: string): void {
  if (targetRole === 'admin' && admins.length <= 1) {
    throw new ApiError('last_admin', `You are the last admin: make another user an admin before ${before}`);
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/**
 * POST /api/users: the record of the signed-in account. Only an email the auth server vouches for, and has
 * confirmed, can claim the admin role: an unconfirmed sign-up with a listed address is whoever typed it first.
 */
async function register(deps: Deps, claims: TokenClaims, body: z.infer<typeof registerBody>): Promise<{ row: UserRow; created: boolean }> {
  const verifiedEmail = (claims.email ?? '').toLowerCase();
  const listed = verifiedEmail !== '' && deps.config.adminEmails.some((email) => email.trim().toLowerCase() === verifiedEmail);
  const isAdminEmail = listed && (await deps.emailConfirmed(claims.sub));
  const role: Role = isAdminEmail ? 'admin' : 'user';
  const fields = { id: body.uid, email: body.email, displayName: body.displayName, mobile: body.mobile, role };
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const created = await insertUser(trx, fields, await nextVersion(trx));
      if (!created) {
        // The same registration sent twice at once: the first one made the record.
        const row = await findUserIncludingDeleted(trx, body.uid);
        if (!row || row.deleted_at) throw forbidden('This account has been deleted');
        return { row, created: false };
      }
      await recordAudit(trx, created, { action: 'user.create', entity: 'user', entityId: created.id, details: { role: created.user_role } });
      return { row: created, created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('An account with this email address already exists');
    throw error;
  }
}

/** PUT /api/users/{uid}: the caller's own name and mobile; the address follows the auth account once its owner confirmed the change there. */
async function saveProfile(
  deps: Deps,
  me: UserRow,
  claims: TokenClaims,
  input: { displayName: string; mobile: string; version: number | undefined },
): Promise<UserRow> {
  const { displayName, mobile, version } = input;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const current = await lockUser(trx, me.id);
      if (!current) throw notFound('User');
      assertVersion(current.version, version, 'user');
      const email = claims.email ? claims.email.toLowerCase() : current.email;
      if (current.display_name === displayName && current.mobile === mobile && current.email === email) return current;
      const updated = await updateProfile(trx, me.id, { displayName, mobile, email }, await nextVersion(trx));
      const changed = [current.display_name !== displayName && 'displayName', current.mobile !== mobile && 'mobile', current.email !== email && 'email'].filter(
        Boolean,
      );
      await recordAudit(trx, me, { action: 'user.profile', entity: 'user', entityId: me.id, details: { changed } });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('An account with this email address already exists');
    throw error;
  }
}

/** PUT /api/users/{uid}/role, by an admin, never on their own account nor leaving the shop without an admin. */
async function changeRole(deps: Deps, me: UserRow, uid: string, userRole: Role, version: number | undefined): Promise<UserRow> {
  return deps.db.transaction().execute(async (trx) => {
    const admins = await lockAdminIds(trx);
    // The caller may have lost the admin role while this request waited for the lock.
    if (!admins.includes(me.id)) throw forbidden();
    const target = await lockUser(trx, uid);
    if (!target) throw notFound('User');
    assertVersion(target.version, version, 'user');
    if (target.user_role === userRole) return target;
    assertNotLastAdmin(target.user_role, admins, 'changing your own role');
    if (uid === me.id) throw new ApiError('own_account', 'You cannot change your own role: another admin must do it');
    const updated = await setUserRole(trx, uid, userRole, await nextVersion(trx));
    await recordAudit(trx, me, { action: 'user.role', entity: 'user', entityId: uid, details: { from: target.user_role, to: userRole } });
    return updated;
  });
}

/** DELETE /api/users/{uid}: the record goes in a transaction; the caller then deletes the auth account. */
async function deleteUser(deps: Deps, me: UserRow, uid: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const admins = await lockAdminIds(trx);
    if (!admins.includes(me.id)) throw forbidden();
    const target = await findUserIncludingDeleted(trx, uid);
    if (!target) throw notFound('User');
    // Already deleted: a retry after the auth server failed; only the auth account is left to go.
    if (target.deleted_at) return;
    assertNotLastAdmin(target.user_role, admins, 'deleting your account');
    if (uid === me.id) throw new ApiError('own_account', 'You cannot delete your own account: another admin must do it');
    await softDeleteUser(trx, uid, await nextVersion(trx));
    await recordAudit(trx, me, { action: 'user.delete', entity: 'user', entityId: uid, details: { email: target.email, role: target.user_role } });
  });
}

export function userRoutes(deps: Deps) {
  /**
   * Registration creates the auth account first; when the user record then cannot be saved (bad body,
   * taken email, database error) the account is deleted again, so no half-registered account remains.
   * Accounts that already have a record are never touched, nor are refusals (403).
   */
  const deleteAuthAccountOnFailure = createMiddleware<AppEnv>(async (c, next) => {
    const sub = c.get('auth')!.sub;
    const hadRecord = c.get('user') !== null;
    await next();
    const error = c.error;
    if (!error || hadRecord || (error instanceof ApiError && error.code === 'forbidden')) return;
    try {
      await deps.deleteAuthUser(sub);
    } catch (cause) {
      deps.logger.error('could not delete the auth account after a failed registration', { userId: sub, error: String(cause) });
    }
  });

  return new Hono<AppEnv>()
    .post('/', requireAuth, deleteAuthAccountOnFailure, validate('json', registerBody), async (c) => {
      const claims = c.get('auth')!;
      const body = c.req.valid('json');
      if (body.uid !== claims.sub) throw forbidden('You can only register your own account');
      if (claims.email && claims.email.toLowerCase() !== body.email.toLowerCase()) {
        throw badRequest('email: must be the email of the signed-in account', [{ path: 'email', message: 'must be the email of the signed-in account' }]);
      }
      const existing = c.get('user');
      if (existing) return c.json(toUser(existing), 200);
      const result = await register(deps, claims, body);
      return c.json(toUser(result.row), result.created ? 201 : 200);
    })
    .get('/', requireStaff, validate('query', listPageQuery), async (c) =>
      c.json((await answerListPage(c, c.req.valid('query'), (limit, after) => listUsersPage(deps.db, limit, after))).map(toUser)),
    )
    .get('/:uid', requireRole(), validate('param', uidParam), async (c) => {
      const { uid } = c.req.valid('param');
      const me = c.get('user');
      if (me.id !== uid && !isStaff(me)) throw forbidden('You can only read your own profile');
      const row = await findUser(deps.db, uid);
      if (!row) throw notFound('User');
      return c.json(toUser(row));
    })
    .put('/:uid', requireRole(), validate('param', uidParam), validate('json', profileBody), async (c) => {
      const { uid } = c.req.valid('param');
      const { displayName, mobile, version } = c.req.valid('json');
      const me = c.get('user');
      if (me.id !== uid) throw forbidden('You can only edit your own profile');
      return c.json(toUser(await saveProfile(deps, me, c.get('auth'), { displayName, mobile, version })));
    })
    .put('/:uid/role', requireAdmin, validate('param', uidParam), validate('json', roleBody), async (c) => {
      const { uid } = c.req.valid('param');
      const { userRole, version } = c.req.valid('json');
      return c.json(toUser(await changeRole(deps, c.get('user'), uid, userRole, version)));
    })
    .delete('/:uid', requireAdmin, validate('param', uidParam), async (c) => {
      const { uid } = c.req.valid('param');
      await deleteUser(deps, c.get('user'), uid);
      // After the commit: a failure here answers 500, and repeating the DELETE finishes the job.
      await deps.deleteAuthUser(uid);
      return c.body(null, 204);
    });
}
