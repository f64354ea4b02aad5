import { Hono } from 'hono';
import { settingsBody } from '../contract/settings-requests.ts';
import type { SiteSettings } from '../contract/settings.ts';
import { recordAudit } from '../db/audit.ts';
import { findSettingsRow, saveSettings, SITE_SETTINGS_ID } from '../db/settings.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { toSiteSettings } from '../presenters/settings.ts';

export function settingsRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json<SiteSettings>(toSiteSettings((await findSettingsRow(deps.db))?.value)))
    .put('/', requireAdmin, validate('json', settingsBody), async (c) => {
      const body: SiteSettings = c.req.valid('json');
      const settings = await deps.db.transaction().execute(async (trx) => {
        const version = await nextVersion(trx);
        const before = toSiteSettings((await findSettingsRow(trx))?.value);
        // A body without the low-stock threshold or the payment instructions (a form or an older client
        // that does not know them) keeps the ones set.
        const settings: SiteSettings = {
          ...body,
          lowStockThreshold: body.lowStockThreshold ?? before.lowStockThreshold ?? 0,
          paymentInstructions: body.paymentInstructions ?? before.paymentInstructions,
          guestCheckout: body.guestCheckout ?? before.guestCheckout ?? false,
          displayCurrencies: body.displayCurrencies ?? before.displayCurrencies ?? [],
        };
        await saveSettings(trx, settings, version);
        await watchStockLevel(trx, version);
        const changed = (Object.keys(settings) as (keyof SiteSettings)[]).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(settings[key]));
        await recordAudit(trx, c.get('user'), { action: 'settings.update', entity: 'settings', entityId: SITE_SETTINGS_ID, details: { changed } });
        return settings;
      });
      return c.json<SiteSettings>(settings);
    });
}
