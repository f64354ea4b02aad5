import { Hono } from 'hono';
import { limitMailsTo, spend } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import { confirmEmail, findAuthUserByEmail, hashRefreshToken, lockAuthUser, newRefreshToken, recordSignIn, startSession, takeOneTimeToken, type LinkPurpose } from './auth-store.ts';
import { AuthFailure, normalizeEmail, readJsonObject, validationFailed } from './auth-requests.ts';

/** How long a mailed link works: GoTrue's default mailer OTP lifetime is one hour too. */
const LINK_LIFETIME_MS = 60 * 60_000;
const LINK_INVALID = 'Email link is invalid or has expired';

/** The mailed links: ask for a recovery link, and use a recovery or email-change link. */
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
    void mailRecovery(kit, email, redirectTo);
    return c.json({});
  });

  // The link in the mail: GoTrue's redirect, with the session in the URL fragment (never sent to a server)
  // for supabase-js's detectSessionInUrl, or the error there when the link no longer works.
  app.get('/verify', async (c) => {
    const type = c.req.query('type');
    const purpose: LinkPurpose = type === 'email_change' ? 'email_change' : 'recovery';
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
  app.post('/verify', async (c) => {
    const body = await readJsonObject(c);
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

/** Uses a mailed link: a session for its account (and, for an email change, the account's new address). */
async function verifyLink(kit: AuthKit, token: unknown, type: unknown) {
  if (type !== 'recovery' && type !== 'email_change') throw validationFailed('Verify requires a verification type of recovery or email_change');
  if (typeof token !== 'string' || token === '' || token.length > 200) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
  const purpose: LinkPurpose = type;
  const tokenHash = await hashRefreshToken(token);
  const now = kit.clock();
  const refreshToken = newRefreshToken();
  const refreshTokenHash = await hashRefreshToken(refreshToken);
  const verified = await kit.db.transaction().execute(async (trx) => {
    const link = await takeOneTimeToken(trx, tokenHash, purpose, new Date(now.getTime() - LINK_LIFETIME_MS));
    if (!link) return undefined;
    const current = await lockAuthUser(trx, link.userId);
    if (!current) return undefined;
    if (purpose === 'email_change') {
      // Taken by someone else since it was asked for: the link no longer works.
      const owner = link.newEmail ? await findAuthUserByEmail(trx, link.newEmail) : undefined;
      if (!link.newEmail || (owner && owner.id !== current.id)) return undefined;
    }
    // Opening a link mailed to the address proves it is theirs.
    const user = await confirmEmail(trx, current.id, now, purpose === 'email_change' ? (link.newEmail ?? undefined) : undefined);
    const sessionId = await startSession(trx, user.id, refreshTokenHash, now, purpose);
    return { user: await recordSignIn(trx, user.id, now), sessionId };
  });
  if (!verified) throw new AuthFailure(403, 'otp_expired', LINK_INVALID);
  kit.logger.info(purpose === 'recovery' ? 'auth: recovery link used' : 'auth: email address changed', { userId: verified.user.id });
  return kit.tokenResponse(verified.user, verified.sessionId, refreshToken);
}
