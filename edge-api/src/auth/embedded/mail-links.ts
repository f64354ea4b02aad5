import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashRefreshToken, newRefreshToken, saveOneTimeToken, type LinkPurpose } from './auth-store.ts';

/**
 * What a mailed link is for, as its `type` names it: a stored purpose, or `signup`, the confirmation of a
 * new account (decision 262), kept as a sign-in link without a code (the stored purposes predate it).
 */
export type LinkType = LinkPurpose | 'signup';

/** The purpose a link of `type` is stored under. */
export const storedPurpose = (type: LinkType): LinkPurpose => (type === 'signup' ? 'magiclink' : type);

/** Where a verified link sends the browser by default: the PWA's screens for each purpose. */
const LANDING_PATHS: Record<LinkType, string> = { recovery: '/reset-password', email_change: '/profile', magiclink: '/my-orders', signup: '/' };

export interface MailLinks {
  /** The address customers reach the shop at: mailed links point there. */
  siteUrl: URL;
  /** A redirect_to on an allowed origin, else the PWA's screen on the site: never a stranger's page (the tokens ride along). */
  redirectFor(purpose: LinkType, requested: string | undefined): URL;
  /**
   * A new link for the account: its secret goes into the mail, only its hash into the database (with the
   * address an email change moves to, or the hash of a sign-in link's code).
   */
  issueLink(userId: string, purpose: LinkType, redirectTo: string | undefined, extra?: { newEmail?: string; codeHash?: string }): Promise<string>;
}

export function createMailLinks(options: { db: Kysely<Database>; clock: () => Date; siteUrl: URL; redirectOrigins: string[] }): MailLinks {
  const { db, clock, siteUrl } = options;
  const allowed = new Set([siteUrl.origin, ...options.redirectOrigins.flatMap((origin) => (URL.canParse(origin) ? [new URL(origin).origin] : []))]);
  const redirectFor = (purpose: LinkType, requested: string | undefined): URL => {
    if (requested && URL.canParse(requested)) {
      const url = new URL(requested);
      if (allowed.has(url.origin)) {
        url.hash = '';
        return url;
      }
    }
    return new URL(LANDING_PATHS[purpose], siteUrl);
  };
  return {
    siteUrl,
    redirectFor,
    async issueLink(userId, purpose, redirectTo, extra = {}) {
      const token = newRefreshToken();
      await saveOneTimeToken(db, { tokenHash: await hashRefreshToken(token), userId, purpose: storedPurpose(purpose), ...extra, now: clock() });
      const link = new URL('/auth/v1/verify', siteUrl);
      link.searchParams.set('token', token);
      link.searchParams.set('type', purpose);
      link.searchParams.set('redirect_to', redirectFor(purpose, redirectTo).toString());
      return link.toString();
    },
  };
}
