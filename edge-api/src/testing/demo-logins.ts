import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoLogins } from '../seed/demo-data.ts';
import { demoPassword } from '../seed/demo-passwords.ts';

export type DemoRole = 'admin' | 'moderator' | 'user';

/** The demo logins of a data directory the Node entry seeded: their passwords follow from its keys.json. */
export async function demoLoginsIn(dataDir: string): Promise<Record<DemoRole, { email: string; password: string }>> {
  const keys = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as { serviceRoleKey: string };
  const entries = await Promise.all(
    demoLogins.map(async (login) => [login.role, { email: login.email, password: await demoPassword(keys.serviceRoleKey, login.email) }] as const),
  );
  return Object.fromEntries(entries) as Record<DemoRole, { email: string; password: string }>;
}
