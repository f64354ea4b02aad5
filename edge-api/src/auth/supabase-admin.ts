/** Deps.emailConfirmed against Supabase Auth's admin API: whether the account's address is confirmed. */
export function supabaseEmailConfirmed(authUrl: string, serviceRoleKey: string, fetcher: typeof fetch = fetch) {
  return async (userId: string): Promise<boolean> => {
    const response = await fetcher(`${authUrl}/admin/users/${encodeURIComponent(userId)}`, {
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
    });
    if (response.status === 404) return false;
    if (!response.ok) throw new Error(`Supabase refused to read user: ${response.status}`);
    const user = (await response.json()) as { email_confirmed_at?: unknown };
    return typeof user.email_confirmed_at === 'string' && user.email_confirmed_at !== '';
  };
}

/** Deps.deleteAuthUser against Supabase Auth's admin API; a user already gone counts as deleted. */
export function supabaseUserDeleter(authUrl: string, serviceRoleKey: string) {
  return async (userId: string): Promise<void> => {
    const response = await fetch(`${authUrl}/admin/users/${userId}`, {
      method: 'DELETE',
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ should_soft_delete: false }),
    });
    if (!response.ok && response.status !== 404) throw new Error(`Supabase refused to delete user: ${response.status}`);
  };
}
