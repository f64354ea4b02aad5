import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SigningKey } from '../signing-key.ts';
import { createAuthLimits, type AuthLimits, type AuthRateLimitSettings } from './auth-limits.ts';
import { AuthFailure, bearerToken, sameSecret } from './auth-requests.ts';
import { createAuthTokens, type AuthTokens } from './auth-tokens.ts';
import type { Mailer } from './mailer.ts';
import { createMailLinks, type MailLinks } from './mail-links.ts';

export interface EmbeddedAuthOptions {
  db: Kysely<Database>;
  key: SigningKey;
  /** The `iss` of the access tokens, e.g. 'http://localhost:8787/auth/v1'. */
  issuer: string;
  /** The publishable key the PWA sends as `apikey`; a bearer equal to it means "no user". */
  anonKey: string;
  /** Secret; the bearer /admin/* calls need. */
  serviceRoleKey: string;
  /** The caller's IP, for the rate limits. */
  clientIp: (c: Context) => string;
  clock?: () => Date;
  logger: Logger;
  accessTokenSeconds?: number;
  /**
   * ADMIN_EMAILS: a sign-up with one of these addresses is left unconfirmed (no session, and no sign-in
   * until the owner's `npm run admin` confirms it), since the API makes a confirmed one an admin and
   * this server cannot send mail to prove the address.
   */
  unconfirmedEmails?: string[];
  /**
   * Stand-in only: also accept HS256 access tokens signed with this secret on /user and /logout, as a
   * Supabase project on the legacy JWT secret does (this server itself only ever signs ES256).
   */
  legacyJwtSecret?: string;
  rateLimits?: AuthRateLimitSettings;
  /** Sends the recovery and email-change links (SMTP, or the local mailbox). */
  mailer: Mailer;
  /**
   * The address customers reach the shop at (SITE_URL, else http://localhost:PORT): mailed links point
   * there, and a link's redirect_to must be on it or on one of `redirectOrigins`.
   */
  siteUrl?: string;
  /** Other origins a mailed link may send its tokens to (ALLOWED_ORIGINS). */
  redirectOrigins?: string[];
  /**
   * AUTH_CONFIRM_SIGNUPS (decision 262): a sign-up answers the user without a session and mails a link that
   * confirms the address and signs in; a taken address answers the same and its owner gets a notice. Off by
   * default: the specification signs a new customer in at registration.
   */
  confirmSignups?: boolean;
  /**
   * Takes the mail work a route leaves running after its answer (which never throws: it logs). Left to
   * run on its own unless given; a test hands a tracker here to wait for that work to end (decision 260).
   */
  afterAnswer?: (work: Promise<void>) => void;
}

/** What every endpoint group of the embedded auth shares. */
export interface AuthKit extends AuthTokens, MailLinks {
  db: Kysely<Database>;
  clock: () => Date;
  logger: Logger;
  mailer: Mailer;
  clientIp: (c: Context) => string;
  limits: AuthLimits;
  /** ADMIN_EMAILS, lower-cased. */
  unconfirmedEmails: Set<string>;
  /** Sign-ups wait for their address to be confirmed by mail (AUTH_CONFIRM_SIGNUPS, decision 262). */
  confirmSignups: boolean;
  /** The bearer is the service-role key, else 401/403. */
  requireServiceRole: MiddlewareHandler;
  /** Where mail work that goes on after the answer is handed (EmbeddedAuthOptions.afterAnswer). */
  afterAnswer: (work: Promise<void>) => void;
}

export function createAuthKit(options: EmbeddedAuthOptions): AuthKit {
  const { db, logger, mailer, clientIp, serviceRoleKey } = options;
  const clock = options.clock ?? (() => new Date());
  const tokens = createAuthTokens({
    db,
    key: options.key,
    issuer: options.issuer,
    anonKey: options.anonKey,
    clock,
    accessTokenSeconds: options.accessTokenSeconds ?? 3600,
    legacyJwtSecret: options.legacyJwtSecret,
  });
  const siteUrl = new URL(options.siteUrl ?? new URL(options.issuer).origin);
  const links = createMailLinks({ db, clock, siteUrl, redirectOrigins: options.redirectOrigins ?? [] });
  const requireServiceRole: MiddlewareHandler = async (c, next) => {
    const bearer = bearerToken(c);
    if (!bearer) throw new AuthFailure(401, 'no_authorization', 'This endpoint requires a Bearer token');
    if (!sameSecret(bearer, serviceRoleKey)) throw new AuthFailure(403, 'not_admin', 'User not allowed');
    await next();
  };
  return {
    ...tokens,
    ...links,
    db,
    clock,
    logger,
    mailer,
    clientIp,
    limits: createAuthLimits(db, clock, options.rateLimits),
    unconfirmedEmails: new Set((options.unconfirmedEmails ?? []).map((email) => email.trim().toLowerCase())),
    confirmSignups: options.confirmSignups === true,
    requireServiceRole,
    afterAnswer: options.afterAnswer ?? ((work) => void work),
  };
}
