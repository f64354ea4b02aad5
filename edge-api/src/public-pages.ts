import type { Service } from './contract/services.ts';
import type { SiteSettings } from './contract/settings.ts';
import { listServices } from './db/services.ts';
import { findSettingsRow } from './db/settings.ts';
import type { Deps } from './deps.ts';
import { toService } from './presenters/services.ts';
import { toSiteSettings } from './presenters/settings.ts';

/**
 * The public pages (/, /about, /contact, /services, /proxy) rendered from the database on each request
 * (decision 053), by both entries: the Node server (public-pages-node.ts) and the worker. This part
 * touches no platform: it reads the rows and hands them to the build's server render.
 */

/** What the build's server render (pwa/src/server-render.tsx, built into dist-ssr/) offers. */
export interface ServerRender {
  isPublicPage(pathname: string): boolean;
  renderPublicPage(template: string, url: string, snapshot: { settings: SiteSettings; services: Service[] }): string | null;
}

const publicPaths = new Set(['/', '/about', '/contact', '/services', '/proxy']);
/** The pages the server renders (pwa/src/server-render.tsx has the same list), any case. */
export const isPublicPath = (pathname: string) => publicPaths.has(pathname.toLowerCase());

/**
 * The page at `url` rendered into the app shell `template`, from the rows `/api/services` and
 * `/api/settings` would answer. Null when it is not a public page, or when the database cannot be read:
 * the caller then serves the app shell, which renders from the device (a visitor never gets an error
 * page because the database blinked).
 */
export async function renderPublicHtml(db: Deps['db'], logger: Deps['logger'], render: ServerRender, template: string, url: URL): Promise<string | null> {
  if (!isPublicPath(url.pathname)) return null;
  let snapshot: { settings: SiteSettings; services: Service[] };
  try {
    const [rows, settingsRow] = await Promise.all([listServices(db), findSettingsRow(db)]);
    snapshot = { settings: toSiteSettings(settingsRow?.value), services: rows.map(toService) };
  } catch (error) {
    logger.warn('public page: the database could not be read; serving the app shell instead', { path: url.pathname, error: String(error) });
    return null;
  }
  return render.renderPublicPage(template, url.pathname + url.search, snapshot);
}
