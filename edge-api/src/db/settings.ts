import { sql, type Kysely, type Transaction } from 'kysely';
import type { SiteSettings } from '../contract.ts';
import type { Database } from './schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The one settings row. */
export const SITE_SETTINGS_ID = 'site';

/** Neutral demo values: what a fresh shop shows until an admin fills in its own links and numbers. */
export const defaultSettings: SiteSettings = {
  brandName: 'Digital Services Hub',
  contactChatUrl: 'https://t.me/your_support',
  providerChatUrl: 'https://t.me/your_sales',
  telegramBotUrl: 'https://t.me/your_proxy_bot',
  salesHandle: '@your_sales',
  supportEmail: 'support@example.com',
  supportPhone: '+880 1XXX-XXXXXX',
  address: '123 Example Street, Your City',
  socialLinks: {
    facebook: 'https://facebook.com/your_page',
    twitter: 'https://x.com/your_handle',
    instagram: 'https://instagram.com/your_handle',
    linkedin: 'https://linkedin.com/company/your_company',
    telegram: 'https://t.me/your_channel',
    whatsapp: 'https://wa.me/8801XXXXXXXXX',
  },
  wallets: [
    { name: 'bKash', number: '01XXXXXXXXX' },
    { name: 'Nagad', number: '01XXXXXXXXX' },
    { name: 'Rocket', number: '01XXXXXXXXX' },
  ],
};

/** A stored value over the defaults, so a field added later still answers something sensible. */
export function toSiteSettings(value: Record<string, unknown> | null | undefined): SiteSettings {
  const stored = (value ?? {}) as Partial<SiteSettings>;
  return {
    ...defaultSettings,
    ...stored,
    socialLinks: { ...defaultSettings.socialLinks, ...stored.socialLinks },
    wallets: Array.isArray(stored.wallets) ? stored.wallets : defaultSettings.wallets,
  };
}

export function findSettingsRow(db: Db) {
  return db.selectFrom('settings').selectAll().where('id', '=', SITE_SETTINGS_ID).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function readSettings(db: Db): Promise<SiteSettings> {
  return toSiteSettings((await findSettingsRow(db))?.value);
}

export function saveSettings(db: Db, settings: SiteSettings, version: number) {
  const value = JSON.stringify(settings);
  return db
    .insertInto('settings')
    .values({ id: SITE_SETTINGS_ID, value, version })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ value, version, updated_at: sql<Date>`now()`, deleted_at: null }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
