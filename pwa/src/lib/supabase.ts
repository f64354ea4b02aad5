import { createClient, type SupabaseClient } from '@supabase/supabase-js';

interface RuntimeConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

const CONFIG_KEY = 'storefront:config';
let client: Promise<SupabaseClient> | undefined;

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

export function getSupabase(): Promise<SupabaseClient> {
  client ??= loadConfig().then((config) => {
    // The embedded server answers a relative origin; supabase-js needs an absolute URL.
    const url = new URL(config.supabaseUrl, window.location.origin).toString().replace(/\/$/, '');
    return createClient(url, config.supabaseAnonKey, {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
    });
  });
  client.catch(() => {
    client = undefined;
  });
  return client;
}

/** The current access token, refreshed by supabase-js when it is about to expire; null when signed out. */
export async function getAccessToken(): Promise<string | null> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}
