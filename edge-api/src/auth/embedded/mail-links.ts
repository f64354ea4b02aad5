import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashRefreshToken, newRefreshToken, saveOneTimeToken, type LinkPurpose } from './auth-store.ts';

/** Where a verified link sends the browser by default: the PWA's screens for each purpose. */
const LANDING_PATHS: Record<LinkPurpose, string> = { recovery: '/reset-password', email_change: '/profile', magiclink: '/my-orders' };

export interface MailLinks {
  /** The address customers reach the shop at: mailed links point there. */
  siteUrl: URL;
  /** A redirect_to on an allowed origin, else the PWA's screen on the site: never a stranger's page (the tokens ride along). */
  redirectFor(purpose: LinkPurpose, requested: string | undefined): URL;
  /**
   * A new link for the account: its secret goes into the mail, only its hash into the database (with the
   * address an email change moves to, or the hash of a sign-in link's code).
   */
  issueLink(userId: string, purpose: LinkPurpose, redirectTo: string | undefined, extra?: { newEmail?: string; codeHash?: string }): Promise<string>;
}

export function createMailLinks(options: { db: Kysely<Database>; clock: () => Date; siteUrl: URL; redirectOrigins: string[] }): MailLinks {
  const { db, clock, siteUrl } = options;
  const allowed = new Set([siteUrl.origin, ...options.redirectOrigins.flatMap((origin) => (URL.canParse(origin) ? [new URL(origin).origin] : []))]);
  const redirectFor = (purpose: LinkPurpose, requested: string | undefined): URL => {
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
      await saveOneTimeToken(db, { tokenHash: await hashRefreshToken(token), userId, purpose, ...extra, now: clock() });
      const link = new URL('/auth/v1/verify', siteUrl);
      link.searchParams.set('token', token);
      link.searchParams.set('type', purpose);
      link.searchParams.set('redirect_to', redirectFor(purpose, redirectTo).toString());
      return link.toString();
    },
  };
}
