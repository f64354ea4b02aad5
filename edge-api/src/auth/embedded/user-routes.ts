import bcrypt from 'bcryptjs';
import { Hono, type Context } from 'hono';
import { limitMailsTo, refuseFor, spend } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import {
  BCRYPT_COST,
  deleteOneTimeTokens,
  endSessions,
  findAuthUserByEmail,
  lockAuthUser,
  setSessionMethod,
  updateAuthUser,
  type AuthUserRow,
} from './auth-store.ts';
import { AuthFailure, checkNewPassword, normalizeEmail, readJsonObject } from './auth-requests.ts';
import type { Caller } from './auth-tokens.ts';
import { toAuthUser } from './auth-user.ts';
import { profileData } from './profile-data.ts';

/** How long a session opened by a recovery link may set a new password without the current one. */
const RECOVERY_WINDOW_MS = 15 * 60_000;

/** The signed-in user: read it, and change its profile, password or address (GoTrue's GET and PUT /user). */
export function userRoutes(kit: AuthKit): Hono {
  const app = new Hono();
  app.get('/user', async (c) => c.json(toAuthUser((await kit.authenticate(c)).user)));
  app.put('/user', async (c) => {
    const caller = await kit.authenticate(c);
    const { user, sessionId, method } = caller;
    await spend(c, kit.limits.userUpdates, user.id);
    const body = await readJsonObject(c);
    if (typeof body.phone === 'string' && body.phone !== '') throw new AuthFailure(422, 'phone_provider_disabled', 'Phone logins are disabled');
    profileData(user.user_metadata, body.data);
    const newEmail = body.email === undefined || body.email === null || body.email === '' ? undefined : normalizeEmail(body.email);
    const emailChange = newEmail !== undefined && newEmail !== user.email ? newEmail : undefined;
    const passwordHash = await newPasswordHash(kit, c, caller, body);
    if (emailChange !== undefined) {
      // Budgets first, apart from recovery's, whoever owns the address: the answer says nothing of it.
      await spend(c, kit.limits.emailChangeMail, user.id);
      await limitMailsTo(c, kit.limits, emailChange);
    }
    const now = kit.clock();
    const updated = await kit.db.transaction().execute(async (trx) => {
      const current = await lockAuthUser(trx, user.id);
      if (!current) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      const row = await updateAuthUser(trx, user.id, { metadata: profileData(current.user_metadata, body.data), passwordHash, now });
      if (passwordHash) {
        // Whoever learnt the old password loses every session but the one that changed it; a recovery
        // link still unused stops working, and this session needs the password from now on.
        await endSessions(trx, user.id, { except: sessionId });
        await deleteOneTimeTokens(trx, user.id, 'recovery');
        if (method === 'recovery') await setSessionMethod(trx, sessionId, 'password');
      }
      return row;
    });
    if (passwordHash) kit.logger.info('auth: password changed, other sessions ended', { userId: user.id });
    if (emailChange === undefined) return c.json(toAuthUser(updated));
    await mailEmailChange(kit, c, updated, emailChange);
    return c.json({ ...toAuthUser(updated), new_email: emailChange, email_change_sent_at: now.toISOString() });
  });
  return app;
}

/**
 * The hash of the new password, when the body sets one. A session a recovery link opened sets it without
 * the current one for its first 15 minutes; any other needs it (GoTrue's "require current password"), so
 * an unlocked phone is not enough to take the account.
 */
async function newPasswordHash(kit: AuthKit, c: Context, caller: Caller, body: Record<string, unknown>): Promise<string | undefined> {
  if (body.password === undefined || body.password === null) return undefined;
  const newPassword = checkNewPassword(body.password, 'Password must be a string');
  const { user, method, startedAt } = caller;
  const recovering = method === 'recovery' && kit.clock().getTime() - startedAt.getTime() < RECOVERY_WINDOW_MS;
  if (!recovering) {
    if (typeof body.current_password !== 'string' || body.current_password === '') {
      if (method === 'recovery') throw new AuthFailure(401, 'reauthentication_needed', 'This password reset link has expired. Ask for a new one.');
      throw new AuthFailure(400, 'current_password_required', 'Current password required when setting new password.');
    }
    const ip = kit.clientIp(c);
    const waited = await kit.limits.guesses.check(user.email, ip);
    if (!waited.allowed) throw refuseFor(c, waited.retryAfterSeconds);
    if (!(await bcrypt.compare(body.current_password, user.encrypted_password))) {
      await kit.limits.guesses.fail(user.email, ip);
      throw new AuthFailure(400, 'current_password_mismatch', 'Current password does not match.');
    }
    await kit.limits.guesses.succeed(user.email, ip);
  }
  if (await bcrypt.compare(newPassword, user.encrypted_password)) {
    throw new AuthFailure(422, 'same_password', 'New password should be different from the old password.');
  }
  return bcrypt.hash(newPassword, BCRYPT_COST);
}

/**
 * The address moves only when the link mailed to it is opened: it proves the new address is theirs. When
 * another account has it, its owner is told instead and no link is made (decision 162).
 */
async function mailEmailChange(kit: AuthKit, c: Context, user: AuthUserRow, newEmail: string): Promise<void> {
  const owner = await findAuthUserByEmail(kit.db, newEmail);
  const host = kit.siteUrl.host;
  if (owner && owner.id !== user.id) {
    await kit.mailer.send({
      to: newEmail,
      subject: 'Someone tried to use your email address',
      text: [
        `Someone asked to move another account at ${host} to this address, which your account already uses.`,
        '',
        'Nothing has changed: your account and its sign-in stay as they are. If this was you, sign in with this address instead.',
      ].join('\n'),
    });
    kit.logger.info('auth: email change to a taken address; its owner was told', { userId: user.id });
    return;
  }
  const link = await kit.issueLink(user.id, 'email_change', c.req.query('redirect_to'), { newEmail });
  await kit.mailer.send({
    to: newEmail,
    subject: 'Confirm your new email address',
    link,
    text: [
      `Someone, hopefully you, asked to change the email address of an account at ${host} to this one.`,
      '',
      'To confirm the change, open this link within one hour:',
      link,
      '',
      `Until then the account keeps signing in with ${user.email}. If you did not ask for this, ignore this message.`,
    ].join('\n'),
  });
  kit.logger.info('auth: email change requested, confirmation mailed to the new address', { userId: user.id });
}
