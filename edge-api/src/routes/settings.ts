import { Hono } from 'hono';
import { z } from 'zod';
import type { SiteSettings } from '../contract.ts';
import { recordAudit } from '../db/audit.ts';
import { findSettingsRow, readSettings, saveSettings, SITE_SETTINGS_ID, toSiteSettings } from '../db/settings.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';

const linkProtocols = new Set(['https:', 'http:', 'tg:', 'whatsapp:', 'mailto:', 'tel:']);
const linkMessage = 'must be a link starting with https://, http://, tg://, whatsapp://, mailto: or tel:';

const isLink = (value: string) => {
  try {
    return linkProtocols.has(new URL(value).protocol);
  } catch {
    return false;
  }
};

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const requiredText = (max: number) => text(max).min(1, 'is required');
const link = text(500).min(1, 'is required').refine(isLink, { message: linkMessage });
/** Social links may be left empty: the page then shows the button without a target. */
const optionalLink = text(500).refine((value) => value === '' || isLink(value), { message: linkMessage });

const settingsBody = z.object({
  brandName: requiredText(80),
  contactChatUrl: link,
  providerChatUrl: link,
  telegramBotUrl: link,
  salesHandle: text(80),
  supportEmail: text(320).refine((value) => value === '' || z.email().safeParse(value).success, { message: 'must be an email address' }),
  supportPhone: text(40).regex(/^[0-9X+()\-\s]*$/, 'may hold only digits, spaces, +, -, ( ) and X'),
  address: text(300),
  socialLinks: z.object({
    facebook: optionalLink,
    twitter: optionalLink,
    instagram: optionalLink,
    linkedin: optionalLink,
    telegram: optionalLink,
    whatsapp: optionalLink,
  }),
  wallets: z
    .array(z.object({ name: requiredText(40), number: requiredText(40) }))
    .max(10, 'must have at most 10 entries'),
}) satisfies z.ZodType<SiteSettings>;

export function settingsRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json<SiteSettings>(await readSettings(deps.db)))
    .put('/', requireAdmin, validate('json', settingsBody), async (c) => {
      const settings: SiteSettings = c.req.valid('json');
      await deps.db.transaction().execute(async (trx) => {
        const version = await nextVersion(trx);
        const before = toSiteSettings((await findSettingsRow(trx))?.value);
        await saveSettings(trx, settings, version);
        const changed = (Object.keys(settings) as (keyof SiteSettings)[]).filter(
          (key) => JSON.stringify(before[key]) !== JSON.stringify(settings[key]),
        );
        await recordAudit(trx, c.get('user'), { action: 'settings.update', entity: 'settings', entityId: SITE_SETTINGS_ID, details: { changed } });
      });
      return c.json<SiteSettings>(settings);
    });
}
