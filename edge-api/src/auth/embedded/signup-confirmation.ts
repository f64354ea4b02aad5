import bcrypt from 'bcryptjs';
import type { Context } from 'hono';
import { limitMailsTo } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import { BCRYPT_COST, findAuthUserByEmail, insertAuthUser } from './auth-store.ts';
import { toAuthUser, type AuthUser } from './auth-user.ts';

/** A sign-up the route has checked: the address normalised, the password within the rules, the metadata cleaned. */
export interface SignUpRequest {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
}

/** The answer of a sign-up waiting for its confirmation: GoTrue's user, no session, and when the mail went. */
export type PendingUser = AuthUser & { confirmation_sent_at: string };

/**
 * Sign-up with AUTH_CONFIRM_SIGNUPS (decision 262), as Supabase Auth answers with "Confirm email" on, but
 * telling nobody who is registered. Whoever asks and whatever the address: the per-address mail budget is
 * spent, the password is hashed, and the answer is the same user without a session (a fresh random id for
 * a taken address; unlike Supabase's, with one unverified identity either way). A free address gets an
 * unconfirmed account and a link that confirms it and signs in; a taken one changes nothing and its owner
 * is told, without a link. The mail goes after the answer, so its timing says nothing either.
 */
export async function signUpToConfirm(kit: AuthKit, c: Context, request: SignUpRequest): Promise<PendingUser> {
  const { email, password, metadata } = request;
  await limitMailsTo(c, kit.limits, email);
  const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
  const now = kit.clock();
  const taken = await findAuthUserByEmail(kit.db, email);
  // Another sign-up may win the address between the look-up and the insert: that one is taken too.
  const made = taken
    ? undefined
    : await insertAuthUser(kit.db, { id: crypto.randomUUID(), email, passwordHash, metadata, now, signedIn: false, confirmed: false });
  if (!made) kit.afterAnswer(mailTakenNotice(kit, email));
  else if (kit.unconfirmedEmails.has(email)) {
    // An admin address is confirmed by the owner's `npm run admin` only, never by a mailed link.
    kit.logger.warn('auth: an ADMIN_EMAILS address signed up; it stays unconfirmed until `npm run admin` confirms it', { userId: made.id });
  } else kit.afterAnswer(mailConfirmation(kit, made.id, email, c.req.query('redirect_to')));
  return pendingUser(made?.id ?? crypto.randomUUID(), email, metadata, now);
}

/** The one shape both answers take: built from the same fields, so no key or value tells them apart. */
function pendingUser(id: string, email: string, metadata: Record<string, unknown>, now: Date): PendingUser {
  const row = { id, email, encrypted_password: '', user_metadata: metadata, last_sign_in_at: null, email_confirmed_at: null, created_at: now, updated_at: now };
  return { ...toAuthUser(row), confirmation_sent_at: now.toISOString() };
}

async function mailConfirmation(kit: AuthKit, userId: string, email: string, redirectTo: string | undefined): Promise<void> {
  try {
    const link = await kit.issueLink(userId, 'signup', redirectTo);
    await kit.mailer.send({
      to: email,
      subject: 'Confirm your account',
      link,
      text: [
        `Someone, hopefully you, created an account at ${kit.siteUrl.host} with this address.`,
        '',
        'To confirm it and sign in, open this link within one hour:',
        link,
        '',
        'If you did not ask for this, ignore this message: the account stays unconfirmed and nobody can sign in to it.',
      ].join('\n'),
    });
    kit.logger.info('auth: sign-up confirmation mailed', { userId });
  } catch (error) {
    kit.logger.error('auth: could not send a sign-up confirmation', { error: String(error) });
  }
}

async function mailTakenNotice(kit: AuthKit, email: string): Promise<void> {
  try {
    await kit.mailer.send({
      to: email,
      subject: 'Someone tried to register with your email address',
      text: [
        `Someone tried to create an account at ${kit.siteUrl.host} with this address, which your account already uses.`,
        '',
        'Nothing has changed: your account and its password stay as they are, and no new account was made.',
        'If this was you, sign in instead; if you do not remember your password, choose "Forgot password?" on the sign-in page.',
      ].join('\n'),
    });
    kit.logger.info('auth: sign-up with a taken address; its owner was told');
  } catch (error) {
    kit.logger.error('auth: could not send a taken-address notice', { error: String(error) });
  }
}
