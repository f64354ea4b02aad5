import type { Transaction } from 'kysely';
import { createAuthUser } from '../auth/embedded/auth-store.ts';
import { apiKeyScopes } from '../contract/partners.ts';
import type { Database } from '../db/schema.ts';
import { hashApiKey } from '../lib/api-key-secret.ts';

/** The demo reseller: signs in like the other demo logins, and owns the demo API key. */
export const DEMO_RESELLER = { email: 'reseller@demo.test', role: 'reseller', name: 'Demo Reseller', mobile: '01711000009' } as const;

/**
 * The demo shop's reseller (decision 141): an account with its own prices (20 % off everything, and the
 * proxy pack's quantity tiers everyone gets) and one API key with every scope, for trying /api/v1 at once.
 * The key is `apiKey` (derived per data directory, demo-passwords.ts), kept as its SHA-256 only.
 */
export async function seedDemoReseller(
  trx: Transaction<Database>,
  context: { version: number; now: number; admin: { id: string }; password: string; apiKey: string; tieredServiceId?: string },
): Promise<void> {
  const { version, now, admin, password, apiKey } = context;
  const createdAt = new Date(now - 35 * 24 * 3600 * 1000);
  const account = await createAuthUser(trx, {
    email: DEMO_RESELLER.email,
    password,
    metadata: { displayName: DEMO_RESELLER.name, mobile: DEMO_RESELLER.mobile },
    now: createdAt,
  });
  if (!account) throw new Error(`Could not create the demo account ${DEMO_RESELLER.email}`);
  await trx
    .insertInto('users')
    .values({
      id: account.id,
      email: DEMO_RESELLER.email,
      display_name: DEMO_RESELLER.name,
      mobile: DEMO_RESELLER.mobile,
      user_role: 'user',
      version,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  await trx
    .insertInto('customer_prices')
    .values({ id: crypto.randomUUID(), user_id: account.id, service_id: null, unit_cents: null, percent_off: 20, updated_at: new Date(now) })
    .execute();
  if (context.tieredServiceId) {
    await trx
      .insertInto('service_price_tiers')
      .values([
        { service_id: context.tieredServiceId, min_quantity: 5, unit_cents: 700 },
        { service_id: context.tieredServiceId, min_quantity: 20, unit_cents: 550 },
      ])
      .execute();
  }
  await trx
    .insertInto('api_keys')
    .values({
      id: crypto.randomUUID(),
      user_id: account.id,
      name: 'Demo reseller bot',
      prefix: apiKey.slice(0, 11),
      secret_hash: await hashApiKey(apiKey),
      scopes: [...apiKeyScopes],
      created_by: admin.id,
    })
    .execute();
}
