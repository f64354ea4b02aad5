import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, Next } from 'hono';
import type { Service } from './contract/services.ts';
import type { SiteSettings } from './contract/settings.ts';
import { listServices } from './db/services.ts';
import { findSettingsRow } from './db/settings.ts';
import type { Deps } from './deps.ts';
import { staticHeaders } from './lib/http-headers.ts';
import { chooseEncoding, COMPRESS_THRESHOLD, encodeAnswer } from './middleware/compress-json.ts';
import { toService } from './presenters/services.ts';
import { toSiteSettings } from './presenters/settings.ts';

/** What the build's server render (pwa/src/server-render.tsx, built into dist-ssr/) offers. */
interface ServerRender {
  isPublicPage(pathname: string): boolean;
  renderPublicPage(template: string, url: string, snapshot: { settings: SiteSettings; services: Service[] }): string | null;
}

const publicPaths = new Set(['/', '/about', '/contact', '/services', '/proxy']);
/** The pages the server renders (pwa/src/server-render.tsx has the same list), any case. */
const isPublicPath = (pathname: string) => publicPaths.has(pathname.toLowerCase());

/**
 * The public pages (/, /about, /contact, /services, /proxy) rendered from the database on each request
 * (decision 053): their HTML arrives with the content, and the app takes over from the same rows. Null
 * when the build has no server render (dist-ssr/ missing): the app shell is served as before.
 */
export function publicPages(db: Deps['db'], staticRoot: string, renderRoot: string): ((c: Context, next: Next) => Promise<Response | void>) | null {
  const entry = resolve(join(renderRoot, 'server-render.js'));
  if (!existsSync(entry)) return null;
  // Loaded on the first public page, not at start: React's server renderer is not what a start waits for.
  let loading: Promise<{ render: ServerRender; template: string }> | undefined;
  const load = () =>
    (loading ??= Promise.all([import(pathToFileURL(entry).href) as Promise<ServerRender>, readFile(join(staticRoot, 'index.html'), 'utf8')]).then(
      ([render, template]) => ({ render, template }),
    ));
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isPublicPath(c.req.path)) return next();
    const { render, template } = await load();
    const [rows, settingsRow] = await Promise.all([listServices(db), findSettingsRow(db)]);
    const url = new URL(c.req.url);
    const page = render.renderPublicPage(template, url.pathname + url.search, { settings: toSiteSettings(settingsRow?.value), services: rows.map(toService) });
    if (page === null) return next();
    const headers: Record<string, string> = { ...staticHeaders(c.req.path), 'Content-Type': 'text/html; charset=UTF-8', Vary: 'Accept-Encoding' };
    const body = Buffer.from(page);
    const encoding = body.length >= COMPRESS_THRESHOLD ? chooseEncoding(c.req.header('Accept-Encoding')) : undefined;
    if (encoding) headers['Content-Encoding'] = encoding;
    const out = encoding ? await encodeAnswer(body, encoding) : body;
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(out), { status: 200, headers });
  };
}
