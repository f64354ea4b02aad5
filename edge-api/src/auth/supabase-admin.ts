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
