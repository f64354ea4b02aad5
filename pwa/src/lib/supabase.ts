import type { GoTrueClient } from '@supabase/auth-js';

interface RuntimeConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
  /** The shop still holds the demo accounts (`npm run demo:remove` takes them away). */
  demo?: boolean;
}

const CONFIG_KEY = 'storefront:config';
/** Where the auth client keeps the session in localStorage; named, so it can be looked for without loading it. */
export const SESSION_STORAGE_KEY = 'storefront:auth';

/** What a mailed link (password recovery, email change, sign-in, sign-up confirmation) left in the address when the app opened. */
export interface AuthCallback {
  /** The link signed this browser in (the session is in the fragment, for the auth client to take). */
  type: LinkType | null;
  /** The link no longer works: the auth server's error code, e.g. 'otp_expired'. */
  error: string | null;
}

type LinkType = 'recovery' | 'email_change' | 'magiclink' | 'signup';

const isLinkType = (type: string | null | undefined): type is LinkType =>
  type === 'recovery' || type === 'email_change' || type === 'magiclink' || type === 'signup';

/** Read once at start, before the auth client clears the fragment. */
function readAuthCallback(): AuthCallback | null {
  if (typeof window === 'undefined') return null;
  const params = new URLSearchParams(window.location.hash.slice(1));
  const type = params.get('type');
  if (params.get('access_token') && isLinkType(type)) return { type, error: null };
  const error = params.get('error_code') ?? params.get('error');
  return error ? { type: null, error } : null;
}

export const authCallback = readAuthCallback();

/** The auth client takes a session from the URL only when it comes from one of our mailed links. */
const isOurCallback = (_url: URL, params: Record<string, string>) => Boolean(params.access_token) && isLinkType(params.type);

/**
 * The part of a supabase-js client the app uses: its auth client. It is built from `@supabase/auth-js`,
 * the package supabase-js itself builds `supabase.auth` from, with the same URL, headers and options,
 * so a signed-in first load fetches 24 KB of it instead of supabase-js's 56 KB (decision 074).
 */
export interface SupabaseClient {
  auth: GoTrueClient;
}

let client: Promise<SupabaseClient> | undefined;
let announceClient: (supabase: SupabaseClient) => void;
/** Resolves with the client once anything has loaded it. */
export const supabaseLoaded = new Promise<SupabaseClient>((resolve) => (announceClient = resolve));

/**
 * Whether this device may hold a session. The auth client (about 24 KB gzip) loads only then, or when a
 * visitor signs in or registers: a first visit never waits for it.
 */
export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(SESSION_STORAGE_KEY) !== null;
  } catch {
    return true; // storage not readable: let the auth client decide
  }
}

/**
 * Where auth lives comes from the server at run time (one build serves every mode). The answer is kept
 * so that an offline start still finds its session.
 */
async function loadConfig(): Promise<RuntimeConfig> {
  try {
    const response = await fetch('/api/config');
    if (!response.ok) throw new Error(`config: ${response.status}`);
    const config = (await response.json()) as RuntimeConfig;
    localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
    return config;
  } catch (error) {
    const saved = localStorage.getItem(CONFIG_KEY);
    if (saved) return JSON.parse(saved) as RuntimeConfig;
    throw error;
  }
}

/** Whether the server said, when auth last loaded, that this is a demo shop. */
export function isDemoShop(): boolean {
  try {
    return (JSON.parse(localStorage.getItem(CONFIG_KEY) ?? '{}') as RuntimeConfig).demo === true;
  } catch {
    return false;
  }
}

export function getSupabase(): Promise<SupabaseClient> {
  client ??= Promise.all([loadConfig(), import('@supabase/auth-js')]).then(([config, { AuthClient }]) => {
    // The embedded server answers a relative origin; the auth client needs an absolute URL. These are
    // the URL and headers supabase-js's createClient gives its own auth client.
    const url = new URL('auth/v1', new URL(config.supabaseUrl, window.location.origin).toString().replace(/\/?$/, '/')).href;
    const supabase: SupabaseClient = {
      auth: new AuthClient({
        url,
        headers: { Authorization: `Bearer ${config.supabaseAnonKey}`, apikey: config.supabaseAnonKey },
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: isOurCallback,
        storageKey: SESSION_STORAGE_KEY,
      }),
    };
    announceClient(supabase);
    return supabase;
  });
  client.catch(() => {
    client = undefined;
  });
  return client;
}

/** The current access token, refreshed by the auth client when it is about to expire; null when signed out. */
export async function getAccessToken(): Promise<string | null> {
  if (!client && !hasStoredSession()) return null;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}
