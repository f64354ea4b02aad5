import bcrypt from 'bcryptjs';
import { Hono } from 'hono';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { limitMailsTo, spend } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import {
  BCRYPT_COST,
  confirmEmail,
  endSessions,
  findAuthUserByEmail,
  hashRefreshToken,
  lockAuthUser,
  newRefreshToken,
  recordSignIn,
  startSession,
  takeOneTimeToken,
  takeSignInCode,
  updateAuthUser,
} from './auth-store.ts';
import { storedPurpose, type LinkType } from './mail-links.ts';
import { SIGN_IN_CODE_TRIES, signInCodeHash } from './otp-routes.ts';
import { AuthFailure, normalizeEmail, readJsonObject, validationFailed } from './auth-requests.ts';

/** How long a mailed link works: GoTrue's default mailer OTP lifetime is one hour too. */
const LINK_LIFETIME_MS = 60 * 60_000;
const LINK_INVALID = 'Email link is invalid or has expired';
const CODE_INVALID = 'Token has expired or is invalid';

/** The mailed links: ask for a recovery link, and use a recovery, email-change, sign-in or sign-up link (or a sign-in code). */
export function linkRoutes(kit: AuthKit): Hono {
  const app = new Hono();
  app.post('/recover', async (c) => {
    const body = await readJsonObject(c);
    const email = normalizeEmail(body.email);
    await spend(c, kit.limits.recoveryMail, kit.clientIp(c));
    await limitMailsTo(c, kit.limits, email);
    // The answer is the same whether the account exists or not, and comes before the mail is sent, so
    // neither it nor its timing says who has an account here.
    const redirectTo = c.req.query('redirect_to');
    kit.afterAnswer(mailRecovery(kit, email, redirectTo));
    return c.json({});
  });

  // The link in the mail: GoTrue's redirect, with the session in the URL fragment (never sent to a server)
  // for supabase-js's detectSessionInUrl, or the error there when the link no longer works.
  app.get('/verify', async (c) => {
    const type = c.req.query('type');
    const purpose: LinkType = purposeOf(type) ?? 'recovery';
    const target = kit.redirectFor(purpose, c.req.query('redirect_to'));
    let fragment: URLSearchParams;
    try {
      const session = await verifyLink(kit, c.req.query('token'), type);
      fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        type: purpose,
      });
    } catch (error) {
      if (!(error instanceof AuthFailure)) throw error;
      fragment = new URLSearchParams({ error: 'access_denied', error_code: error.code, error_description: error.message });
    }
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(`${target.toString()}#${fragment.toString()}`, 303);
  });

  // supabase-js's verifyOtp({type, token_hash}): the same link's secret, answered with the session.
  // supabase-js's verifyOtp({email, token, type: 'email'}) too: the six-digit code of a sign-in link.
  app.post('/verify', async (c) => {
    const body = await readJsonObject(c);
    if (body.email !== undefined && body.token_hash === undefined && purposeOf(body.type) === 'magiclink')
      return c.json(await verifyCode(kit, body.email, body.token));
    return c.json(await verifyLink(kit, body.token_hash ?? body.token, body.type));
  });
  return app;
}

async function mailRecovery(kit: AuthKit, email: string, redirectTo: string | undefined): Promise<void> {
  try {
    const found = await findAuthUserByEmail(kit.db, email);
    if (!found) return;
    const link = await kit.issueLink(found.id, 'recovery', redirectTo);
    await kit.mailer.send({
      to: found.email,
      subject: 'Reset your password',
      link,
      text: [
        `Someone, hopefully you, asked to reset the password of your account at ${kit.siteUrl.host}.`,
        '',
        'To choose a new password, open this link within one hour:',
        link,
        '',
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n'),
    });
    kit.logger.info('auth: password recovery mailed', { userId: found.id });
  } catch (error) {
    kit.logger.error('auth: could not send a password recovery mail', { error: String(error) });
  }
}

/** The purpose of a link by GoTrue's verification type: sign-in links answer to 'email' and 'magiclink'. */
function purposeOf(type: unknown): LinkType | undefined {
  if (type === 'recovery' || type === 'email_change' || type === 'magiclink' || type === 'signup') return type;
  return type === 'email' ? 'magiclink' : undefined;
}

/** Uses a mailed link: a session for its account (and, for an email change, the account's new address). */
async function verifyLink(kit: AuthKit, token: unknown, type: unknown) {
  const purpose = purposeOf(type);
  if (!purpose) throw validationFailed('Verify requires a verification type of signup, recovery, email_change, email or magiclink');
  if (typeof token !== 'string' || token === '' || token.length > 200) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
  const tokenHash = await hashRefreshToken(token);
  const notBefore = new Date(kit.clock().getTime() - LINK_LIFETIME_MS);
  return openSession(kit, purpose, async (trx) => {
    const link = await takeOneTimeToken(trx, tokenHash, storedPurpose(purpose), notBefore);
    // A sign-up's confirmation has no code: a sign-in link cannot pass for one (it would keep the password).
    if (!link || (purpose === 'signup' && link.withCode)) return undefined;
    if (purpose === 'email_change') {
      // Taken by someone else since it was asked for: the link no longer works.
      const owner = link.newEmail ? await findAuthUserByEmail(trx, link.newEmail) : undefined;
      if (!link.newEmail || (owner && owner.id !== link.userId)) return undefined;
    }
    return { userId: link.userId, newEmail: purpose === 'email_change' ? (link.newEmail ?? undefined) : undefined };
  });
}

/** Uses the six-digit code of the account's live sign-in link; a wrong one counts against the link. */
async function verifyCode(kit: AuthKit, email: unknown, code: unknown) {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) throw new AuthFailure(403, 'otp_expired', CODE_INVALID);
  const user = await findAuthUserByEmail(kit.db, normalizeEmail(email));
  if (!user) throw new AuthFailure(403, 'otp_expired', CODE_INVALID);
  const codeHash = await signInCodeHash(user.id, code);
  const notBefore = new Date(kit.clock().getTime() - LINK_LIFETIME_MS);
  try {
    return await openSession(kit, 'magiclink', async (trx) =>
      (await takeSignInCode(trx, user.id, codeHash, notBefore, SIGN_IN_CODE_TRIES)) ? { userId: user.id } : undefined,
    );
  } catch (error) {
    if (error instanceof AuthFailure) throw new AuthFailure(403, 'otp_expired', CODE_INVALID);
    throw error;
  }
}

/**
 * In one transaction: uses the link (`take` answers its account, or nothing), confirms the address it was
 * mailed to, and starts a session. An account confirmed only now (made by someone who typed this address)
 * gets a new unknown password and loses its other sessions: whoever made it cannot keep a way in. But for
 * a sign-up's confirmation (decision 262): that account keeps the password its sign-up chose.
 */
async function openSession(kit: AuthKit, purpose: LinkType, take: (trx: Transaction<Database>) => Promise<{ userId: string; newEmail?: string } | undefined>) {
  const now = kit.clock();
  const refreshToken = newRefreshToken();
  const refreshTokenHash = await hashRefreshToken(refreshToken);
  const verified = await kit.db.transaction().execute(async (trx) => {
    const link = await take(trx);
    const current = link && (await lockAuthUser(trx, link.userId));
    if (!link || !current) return undefined;
    if (!current.email_confirmed_at && purpose !== 'signup') {
      const passwordHash = await bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
      await updateAuthUser(trx, current.id, { metadata: current.user_metadata, passwordHash, now });
      await endSessions(trx, current.id);
    }
    // Opening a link mailed to the address proves it is theirs.
    const user = await confirmEmail(trx, current.id, now, link.newEmail);
    const sessionId = await startSession(trx, user.id, refreshTokenHash, now, storedPurpose(purpose));
    return { user: await recordSignIn(trx, user.id, now), sessionId };
  });
  if (!verified) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
  const events: Record<LinkType, string> = {
    signup: 'auth: sign-up confirmed by its mailed link',
    recovery: 'auth: recovery link used',
    email_change: 'auth: email address changed',
    magiclink: 'auth: signed in by a mailed link or code',
  };
  kit.logger.info(events[purpose], { userId: verified.user.id });
  return kit.tokenResponse(verified.user, verified.sessionId, refreshToken);
}
