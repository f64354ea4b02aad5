import { sql } from 'kysely';
import type { SiteSettings } from '../contract/settings.ts';
import type { Db } from './handle.ts';

/** The one settings row. */
export const SITE_SETTINGS_ID = 'site';

export function findSettingsRow(db: Db) {
  return db.selectFrom('settings').selectAll().where('id', '=', SITE_SETTINGS_ID).where('deleted_at', 'is', null).executeTakeFirst();
}

export function saveSettings(db: Db, settings: SiteSettings, version: number) {
  const value = JSON.stringify(settings);
  return db
    .insertInto('settings')
    .values({ id: SITE_SETTINGS_ID, value, version })
    .onConflict((oc) => oc.column('id').doUpdateSet({ value, version, updated_at: sql<Date>`now()`, deleted_at: null }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
