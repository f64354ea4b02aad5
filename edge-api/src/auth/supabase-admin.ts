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

interface AdminUser {
  id: string;
  email?: string;
}

/**
 * The auth side of `npm run admin` against Supabase Auth (GoTrue's admin API, service-role key): the account
 * of `email` is created with the password and a confirmed address, or, when it exists (whoever made it),
 * given this password and a confirmed address. Then every session of the account ends: the command signs
 * in with the new password and signs out with scope global, so a squatter's devices, refresh tokens
 * included, are out (GoTrue's admin update does not promise that by itself).
 */
export async function supabaseOwnerAccount(
  authUrl: string,
  keys: { anonKey: string; serviceRoleKey: string },
  input: { email: string; password: string; name?: string },
  fetcher: typeof fetch = fetch,
): Promise<{ userId: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const admin = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' };
  const refused = async (what: string, response: Response) => {
    const body = (await response.json().catch(() => ({}))) as { msg?: string; message?: string; error_description?: string };
    return new Error(`Supabase Auth refused to ${what}: ${response.status} ${body.msg ?? body.message ?? body.error_description ?? ''}`.trim());
  };

  const find = async (): Promise<AdminUser | undefined> => {
    const perPage = 1000;
    for (let page = 1; ; page += 1) {
      const response = await fetcher(`${authUrl}/admin/users?page=${page}&per_page=${perPage}&filter=${encodeURIComponent(email)}`, { headers: admin });
      if (!response.ok) throw await refused('list users', response);
      const { users } = (await response.json()) as { users: AdminUser[] };
      const found = users.find((user) => user.email?.toLowerCase() === email);
      if (found || users.length < perPage) return found;
    }
  };

  let existing = await find();
  let created = false;
  if (!existing) {
    const response = await fetcher(`${authUrl}/admin/users`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email, password: input.password, email_confirm: true, user_metadata: input.name ? { displayName: input.name } : {} }),
    });
    if (response.ok) {
      existing = (await response.json()) as AdminUser;
      created = true;
    } else if (response.status === 422) {
      // Registered at the same moment: repair it like any existing account.
      existing = await find();
      if (!existing) throw await refused('create the account', response);
    } else {
      throw await refused('create the account', response);
    }
  }
  if (!created) {
    const response = await fetcher(`${authUrl}/admin/users/${encodeURIComponent(existing.id)}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ password: input.password, email_confirm: true }),
    });
    if (!response.ok) throw await refused('set the password', response);
  }

  // Every session of the account ends, the one this sign-in opens included.
  const signIn = await fetcher(`${authUrl}/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: input.password }),
  });
  if (!signIn.ok) throw await refused('sign in with the new password (to end the other sessions)', signIn);
  const { access_token: accessToken } = (await signIn.json()) as { access_token: string };
  const signOut = await fetcher(`${authUrl}/logout?scope=global`, {
    method: 'POST',
    headers: { apikey: keys.anonKey, authorization: `Bearer ${accessToken}` },
  });
  if (!signOut.ok) throw await refused('end the sessions', signOut);
  return { userId: existing.id, created };
}
