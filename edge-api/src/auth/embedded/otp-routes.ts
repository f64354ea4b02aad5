import bcrypt from 'bcryptjs';
import { Hono } from 'hono';
import { limitMailsTo, spend } from './auth-limits.ts';
import type { AuthKit } from './auth-kit.ts';
import { BCRYPT_COST, findAuthUserByEmail, hashRefreshToken, insertAuthUser } from './auth-store.ts';
import { AuthFailure, normalizeEmail, readJsonObject } from './auth-requests.ts';
import { profileData } from './profile-data.ts';

/** Wrong codes a sign-in link's code allows before the link is gone (decision 168). */
export const SIGN_IN_CODE_TRIES = 5;

/** The stored form of a sign-in code: hashed with its account, so equal codes of two accounts differ. */
export const signInCodeHash = (userId: string, code: string): Promise<string> => hashRefreshToken(`${userId}:${code}`);

/** Six random digits, evenly drawn. */
function sixDigits(): string {
  const draw = new Uint32Array(1);
  do crypto.getRandomValues(draw);
  while (draw[0]! >= 4_294_000_000); // a multiple of a million: no digit string more likely than another
  return String(draw[0]! % 1_000_000).padStart(6, '0');
}

/**
 * Supabase's signInWithOtp on the embedded auth (decision 168): `POST /otp` mails a link that signs in,
 * with a six-digit code for another device; an unknown address gets an account (unconfirmed until the link
 * or code is used) unless `create_user` is false. The answer is `{}` whoever asks and whatever the address,
 * before the mail goes; per caller IP and per address budgets come first.
 */
export function otpRoutes(kit: AuthKit): Hono {
  return new Hono().post('/otp', async (c) => {
    const body = await readJsonObject(c);
    if (body.email === undefined && body.phone !== undefined) throw new AuthFailure(422, 'phone_provider_disabled', 'Phone logins are disabled');
    const email = normalizeEmail(body.email);
    const metadata = profileData({}, body.data);
    await spend(c, kit.limits.signInMail, kit.clientIp(c));
    await limitMailsTo(c, kit.limits, email);
    kit.afterAnswer(mailSignIn(kit, email, { createUser: body.create_user !== false, metadata, redirectTo: c.req.query('redirect_to') }));
    return c.json({});
  });
}

/** Finds or makes the account, then mails its link and code; failures are logged, never thrown (the caller has answered). */
export async function mailSignIn(
  kit: AuthKit,
  email: string,
  options: { createUser: boolean; metadata: Record<string, unknown>; redirectTo: string | undefined },
): Promise<void> {
  try {
    let user = await findAuthUserByEmail(kit.db, email);
    if (!user && options.createUser) {
      const passwordHash = await bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
      user = await insertAuthUser(kit.db, {
        id: crypto.randomUUID(),
        email,
        passwordHash,
        metadata: options.metadata,
        now: kit.clock(),
        signedIn: false,
        confirmed: false,
      });
      user ??= await findAuthUserByEmail(kit.db, email);
      if (user) kit.logger.info('auth: account made for a sign-in link', { userId: user.id });
    }
    if (!user) return;
    const code = sixDigits();
    const link = await kit.issueLink(user.id, 'magiclink', options.redirectTo, { codeHash: await signInCodeHash(user.id, code) });
    await kit.mailer.send({
      to: user.email,
      subject: 'Your sign-in link',
      link,
      text: [
        `Someone, hopefully you, asked to sign in to ${kit.siteUrl.host} with this address.`,
        '',
        'To sign in on this device, open this link within one hour:',
        link,
        '',
        `To sign in on another device, enter this code there: ${code}`,
        '',
        'If you did not ask for this, ignore this message: nobody can sign in without it.',
      ].join('\n'),
    });
    kit.logger.info('auth: sign-in link mailed', { userId: user.id });
  } catch (error) {
    kit.logger.error('auth: could not send a sign-in link', { error: String(error) });
  }
}

/**
 * The account of an address, made unconfirmed (an unknown password) when there is none: an order placed
 * with just an email goes to it (decision 177). The password hash is computed either way, so the time
 * taken does not tell whether the account existed.
 */
export async function ensureAccount(kit: AuthKit, email: string): Promise<string> {
  const address = normalizeEmail(email);
  const passwordHash = await bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
  const found = await findAuthUserByEmail(kit.db, address);
  if (found) return found.id;
  const made = await insertAuthUser(kit.db, {
    id: crypto.randomUUID(),
    email: address,
    passwordHash,
    metadata: {},
    now: kit.clock(),
    signedIn: false,
    confirmed: false,
  });
  if (made) kit.logger.info('auth: account made for an order with an email', { userId: made.id });
  const user = made ?? (await findAuthUserByEmail(kit.db, address));
  if (!user) throw new Error('the account of an order with an email could not be made');
  return user.id;
}

/**
 * The sign-in mail of an order placed with just an email: held back, silently, when the address had a mail
 * in the last minute (or its hourly few), counted with signInWithOtp's own (decision 177).
 */
export async function mailGuestSignIn(kit: AuthKit, email: string): Promise<void> {
  const address = normalizeEmail(email);
  if (!(await kit.limits.addressMinute.hit(address)).allowed) return;
  if (!(await kit.limits.addressHour.hit(address)).allowed) return;
  await mailSignIn(kit, address, { createUser: false, metadata: {}, redirectTo: undefined });
}
