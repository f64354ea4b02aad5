import type { GuestAccounts } from '../deps.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * Orders with just an email against Supabase Auth (decision 177): the account through the admin API (made
 * unconfirmed with a random password when there is none), the link through `POST /otp`, which is what
 * `signInWithOtp` calls. Supabase keeps its own limit of one mail per address a minute (and its project's
 * hourly email budget); a refusal there is logged and the order stands.
 */
export function supabaseGuestAccounts(
  authUrl: string,
  keys: { anonKey: string; serviceRoleKey: string },
  options: { redirectTo: string | undefined; logger: Logger; fetcher?: typeof fetch },
): GuestAccounts {
  const fetcher = options.fetcher ?? fetch;
  const admin = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' };
  const find = async (email: string): Promise<string | undefined> => {
    const response = await fetcher(`${authUrl}/admin/users?page=1&per_page=1000&filter=${encodeURIComponent(email)}`, { headers: admin });
    if (!response.ok) throw new Error(`Supabase Auth refused to list users: ${response.status}`);
    const { users } = (await response.json()) as { users: { id: string; email?: string }[] };
    return users.find((user) => user.email?.toLowerCase() === email)?.id;
  };
  return {
    async ensure(email) {
      const address = email.trim().toLowerCase();
      const response = await fetcher(`${authUrl}/admin/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ email: address, password: crypto.randomUUID(), email_confirm: false }),
      });
      if (response.ok) return ((await response.json()) as { id: string }).id;
      // 422: the address has an account already (or was registered at this moment).
      const found = response.status === 422 ? await find(address) : undefined;
      if (!found) throw new Error(`Supabase Auth refused to make the account: ${response.status}`);
      return found;
    },
    async mailSignIn(email) {
      // No redirect named: Supabase lands the link on the project's Site URL.
      const query = options.redirectTo ? `?redirect_to=${encodeURIComponent(options.redirectTo)}` : '';
      const response = await fetcher(`${authUrl}/otp${query}`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, authorization: `Bearer ${keys.anonKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: email.trim().toLowerCase(), create_user: false }),
      });
      if (response.status === 429) {
        options.logger.info('guest order: Supabase held back the sign-in mail (its per-address limit)');
        return;
      }
      if (!response.ok) throw new Error(`Supabase Auth refused to mail a sign-in link: ${response.status}`);
    },
  };
}
