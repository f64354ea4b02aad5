import type { Deps } from '../deps.ts';
import type { Logger } from '../lib/logger.ts';
import { cachedSessionCheck, supabaseSessionCheck } from './session-check.ts';
import { supabaseEmailConfirmed, supabaseUserDeleter } from './supabase-admin.ts';
import { supabaseGuestAccounts } from './supabase-guest-accounts.ts';
import { createTokenVerifier, remoteKeys } from './verifier.ts';

export interface SupabaseProject {
  /** The project's URL; a trailing slash is dropped. */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The project's legacy HS256 secret, for tokens signed before its asymmetric keys. */
  jwtSecret?: string;
  /** Where a guest's sign-in link leads (the shop's /my-orders); unset, Supabase's Site URL. */
  redirectTo: string | undefined;
  logger: Logger;
}

/** The project's Auth address: `<url>/auth/v1`. */
export const supabaseAuthUrl = (url: string) => `${url.replace(/\/+$/, '')}/auth/v1`;

/**
 * What the API asks of the auth server in Supabase mode, assembled once for both entries (issue 34 item 4):
 * tokens checked against the project's keys, sessions asked after (and believed a few seconds), accounts
 * deleted and confirmed with the service role, guests' accounts made by Supabase.
 */
export function supabaseAuthDeps(project: SupabaseProject): Pick<Deps, 'verifyToken' | 'sessionAlive' | 'deleteAuthUser' | 'emailConfirmed' | 'guestAccounts'> {
  const authUrl = supabaseAuthUrl(project.url);
  const { anonKey, serviceRoleKey, logger } = project;
  return {
    verifyToken: createTokenVerifier({ issuer: authUrl, keys: remoteKeys(authUrl), hs256Secret: project.jwtSecret, logger }),
    sessionAlive: cachedSessionCheck(supabaseSessionCheck(authUrl, anonKey)),
    deleteAuthUser: supabaseUserDeleter(authUrl, serviceRoleKey),
    emailConfirmed: supabaseEmailConfirmed(authUrl, serviceRoleKey),
    guestAccounts: supabaseGuestAccounts(authUrl, { anonKey, serviceRoleKey }, { redirectTo: project.redirectTo, logger }),
  };
}
