import bcrypt from 'bcryptjs';
import { Hono, type Context } from 'hono';
import { limitedPerIp, refuseFor, spend } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import {
  BCRYPT_COST,
  endSessions,
  findAuthUserByEmail,
  hashRefreshToken,
  insertAuthUser,
  newRefreshToken,
  recordSignIn,
  rotateRefreshToken,
  startSession,
} from './auth-store.ts';
import { AuthFailure, checkNewPassword, invalidCredentials, normalizeEmail, readJsonObject, validationFailed } from './auth-requests.ts';
import { passwordMatches } from './auth-tokens.ts';
import { toAuthUser } from './auth-user.ts';
import { profileData } from './profile-data.ts';
import { signUpToConfirm } from './signup-confirmation.ts';

const REFRESH_REUSE_GRACE_MS = 10_000;

const taken = () => new AuthFailure(422, 'user_already_exists', 'User already registered');

/** Sign-up, sign-in (password and refresh-token grants) and sign-out. */
export function sessionRoutes(kit: AuthKit): Hono {
  const app = new Hono();
  app.post('/signup', limitedPerIp(kit.limits.signup, kit.clientIp), async (c) => c.json(await signUp(kit, c, await readJsonObject(c))));
  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type');
    const body = await readJsonObject(c);
    if (grantType === 'password') return c.json(await passwordGrant(kit, c, body));
    if (grantType === 'refresh_token') {
      await spend(c, kit.limits.refresh, kit.clientIp(c));
      return c.json(await refreshGrant(kit, body));
    }
    throw validationFailed('unsupported_grant_type');
  });
  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') throw validationFailed('scope must be global, local or others');
    const { user, sessionId } = await kit.authenticate(c);
    await endSessions(kit.db, user.id, scope === 'global' ? {} : scope === 'local' ? { only: sessionId } : { except: sessionId });
    return c.body(null, 204);
  });
  return app;
}

async function signUp(kit: AuthKit, c: Context, body: Record<string, unknown>) {
  const { db, clock, logger } = kit;
  if (body.email === undefined && body.phone !== undefined) throw new AuthFailure(422, 'phone_provider_disabled', 'Phone signups are disabled');
  const email = normalizeEmail(body.email);
  const password = checkNewPassword(body.password, 'Signup requires a valid password');
  const metadata = profileData({}, body.data);
  // The owner chose confirmation by mail: a taken address answers as a free one (decision 262).
  if (kit.confirmSignups) return signUpToConfirm(kit, c, { email, password, metadata });
  // Sign-up signs in at once (the specification's registration), so a taken address cannot answer as a
  // free one would: decisions 162 and 262 say why this one answer still tells by default, and how it is limited.
  if (await findAuthUserByEmail(db, email)) throw taken();
  const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
  const now = clock();
  if (kit.unconfirmedEmails.has(email)) {
    // As Supabase answers a sign-up that needs confirmation: the user, no session.
    const user = await insertAuthUser(db, { id: crypto.randomUUID(), email, passwordHash, metadata, now, signedIn: false, confirmed: false });
    if (!user) throw taken();
    logger.warn('auth: an ADMIN_EMAILS address signed up; it stays unconfirmed until `npm run admin` confirms it', { userId: user.id });
    return toAuthUser(user);
  }
  const refreshToken = newRefreshToken();
  const refreshTokenHash = await hashRefreshToken(refreshToken);
  const created = await db.transaction().execute(async (trx) => {
    const user = await insertAuthUser(trx, { id: crypto.randomUUID(), email, passwordHash, metadata, now, signedIn: true, confirmed: true });
    if (!user) return undefined;
    return { user, sessionId: await startSession(trx, user.id, refreshTokenHash, now) };
  });
  if (!created) throw taken();
  logger.info('auth: user signed up', { userId: created.user.id });
  return kit.tokenResponse(created.user, created.sessionId, refreshToken);
}

async function passwordGrant(kit: AuthKit, c: Context, body: Record<string, unknown>) {
  if (typeof body.email !== 'string' || body.email.trim() === '') throw validationFailed('A valid email is required');
  if (typeof body.password !== 'string' || body.password === '') throw validationFailed('A password is required');
  const email = body.email.trim().toLowerCase();
  const ip = kit.clientIp(c);
  // Per account from this address, and per account from everywhere with a looser cap (unknown emails
  // too, so the answer tells nothing): a stranger elsewhere cannot lock the owner out (decision 161).
  const waited = await kit.limits.guesses.check(email, ip);
  if (!waited.allowed) throw refuseFor(c, waited.retryAfterSeconds);
  await spend(c, kit.limits.signin, ip);
  const found = await findAuthUserByEmail(kit.db, email);
  const matches = await passwordMatches(body.password, found?.encrypted_password);
  if (!found || !matches) {
    await kit.limits.guesses.fail(email, ip);
    throw invalidCredentials();
  }
  await kit.limits.guesses.succeed(email, ip);
  if (!found.email_confirmed_at) throw new AuthFailure(400, 'email_not_confirmed', 'Email not confirmed');
  const refreshToken = newRefreshToken();
  const refreshTokenHash = await hashRefreshToken(refreshToken);
  const now = kit.clock();
  const signedIn = await kit.db.transaction().execute(async (trx) => {
    const sessionId = await startSession(trx, found.id, refreshTokenHash, now);
    return { user: await recordSignIn(trx, found.id, now), sessionId };
  });
  return kit.tokenResponse(signedIn.user, signedIn.sessionId, refreshToken);
}

async function refreshGrant(kit: AuthKit, body: Record<string, unknown>) {
  if (typeof body.refresh_token !== 'string' || body.refresh_token === '') throw validationFailed('A refresh_token is required');
  const presented = body.refresh_token;
  const outcome = await kit.db.transaction().execute((trx) => rotateRefreshToken(trx, presented, newRefreshToken(), kit.clock(), REFRESH_REUSE_GRACE_MS));
  if (outcome.kind === 'not_found') throw new AuthFailure(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (outcome.kind === 'reused') {
    kit.logger.warn('auth: refresh token reused, session revoked', { userId: outcome.userId, sessionId: outcome.sessionId });
    throw new AuthFailure(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  return kit.tokenResponse(outcome.user, outcome.sessionId, outcome.refreshToken);
}
