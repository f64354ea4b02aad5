import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { JWK } from 'jose';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../db/faults.ts';
import { adminRoutes } from './admin-users.ts';
import { createAuthKit, type AuthKit, type EmbeddedAuthOptions } from './auth-kit.ts';
import { deleteAuthUser } from './auth-store.ts';
import { AuthFailure, sameSecret } from './auth-requests.ts';
import { linkRoutes } from './link-routes.ts';
import { ensureAccount, mailGuestSignIn, otpRoutes } from './otp-routes.ts';
import type { GuestAccounts } from '../../deps.ts';
import { sessionRoutes } from './session-routes.ts';
import { userRoutes } from './user-routes.ts';

export type { EmbeddedAuthOptions } from './auth-kit.ts';

export interface EmbeddedAuth {
  /** Mounted at /auth/v1. */
  app: Hono;
  /** Deletes an account (and its sessions); a missing one is not an error. */
  deleteUser(userId: string): Promise<void>;
  /** Public keys only. */
  jwks(): { keys: JWK[] };
  /** Accounts for orders placed with just an email, and their sign-in mail (decision 177). */
  guestAccounts: GuestAccounts;
}

const API_VERSION = '2024-01-01';
const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The subset of Supabase Auth the PWA needs, speaking its wire protocol so that supabase-js works against
 * it unchanged: email + password sign-up and sign-in, refresh-token rotation, the user, logout, the mailed
 * links, and the admin endpoints. One sub-app per endpoint group, sharing one kit (limits, tokens, links);
 * this module adds what every call goes through: errors in GoTrue's format, CORS, the API key, a body limit.
 */
export function createEmbeddedAuth(options: EmbeddedAuthOptions): EmbeddedAuth {
  const kit = createAuthKit(options);
  const app = new Hono();
  app.onError((err, c) => {
    c.header(API_VERSION_HEADER, API_VERSION);
    if (err instanceof AuthFailure) return c.json({ code: err.code, message: err.message, ...err.extra }, err.status);
    if (isDatabaseUnavailable(err)) {
      kit.logger.warn('auth: database unavailable', { method: c.req.method, path: c.req.path, error: err.message });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(
        { code: 'database_unavailable', message: 'The sign-in service cannot reach its database right now. Please try again in a few seconds.' },
        503,
      );
    }
    kit.logger.error('auth: unexpected error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json({ code: 'unexpected_failure', message: 'Unexpected failure, please check server logs for more information' }, 500);
  });
  useGateway(app, options);
  publicRoutes(app, kit);
  for (const group of [sessionRoutes, userRoutes, linkRoutes, otpRoutes, adminRoutes]) app.route('/', group(kit));
  app.all('*', () => {
    throw new AuthFailure(404, 'not_found', 'Not found');
  });
  return {
    app,
    deleteUser: async (userId) => {
      await deleteAuthUser(kit.db, userId);
    },
    jwks: kit.jwks,
    guestAccounts: {
      ensure: (email) => ensureAccount(kit, email),
      mailSignIn: (email) => mailGuestSignIn(kit, email),
    },
  };
}

/** What Supabase's gateway does before any endpoint: the version header, CORS, the API key, a body limit. */
function useGateway(app: Hono, { anonKey, serviceRoleKey }: EmbeddedAuthOptions): void {
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set(API_VERSION_HEADER, API_VERSION);
  });
  // auth-js reads error codes only when it can see the version header, so a cross-origin caller must be allowed to.
  app.use(
    '*',
    cors({
      origin: '*',
      // No allowHeaders: the preflight's requested headers are echoed, so headers supabase-js adds later still pass.
      exposeHeaders: [API_VERSION_HEADER, 'Retry-After'],
      maxAge: 600,
    }),
  );
  // Every call but the public key set, the health check and the mailed link carries a known API key.
  app.use('*', async (c, next) => {
    const path = c.req.path;
    // The mailed link is opened by a browser that has no key, as Supabase's gateway lets it through too.
    if (path.endsWith('/.well-known/jwks.json') || path.endsWith('/health') || (c.req.method === 'GET' && path.endsWith('/verify'))) return next();
    const apikey = c.req.header('apikey');
    if (!apikey) return c.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
    if (apikey !== anonKey && !sameSecret(apikey, serviceRoleKey)) {
      return c.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AuthFailure(413, 'validation_failed', 'Request body is too large');
      },
    }),
  );
}

/** The key set, the health check and the settings: no user, no secret. */
function publicRoutes(app: Hono, kit: AuthKit): void {
  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(kit.jwks());
  });
  app.get('/health', (c) => c.json({ version: 'embedded', name: 'GoTrue', description: 'Embedded Supabase Auth compatible server' }));
  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: !kit.confirmSignups,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
}
