import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, Next } from 'hono';
import type { Deps } from './deps.ts';
import { staticHeaders } from './lib/http-headers.ts';
import { chooseEncoding, COMPRESS_THRESHOLD, encodeAnswer } from './middleware/compress-json.ts';
import { isPublicPath, renderPublicHtml, type ServerRender } from './public-pages.ts';

/**
 * The Node entry's public pages (decision 053), compressed here as the Node entry compresses everything.
 * Null when the build has no server render (dist-ssr/ missing): the app shell is served as before.
 */
export function publicPages(
  db: Deps['db'],
  logger: Deps['logger'],
  staticRoot: string,
  renderRoot: string,
  csp: string,
): ((c: Context, next: Next) => Promise<Response | void>) | null {
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
    const page = await renderPublicHtml(db, logger, render, template, new URL(c.req.url));
    if (page === null) return next();
    const headers: Record<string, string> = { ...staticHeaders(c.req.path, csp), 'Content-Type': 'text/html; charset=UTF-8', Vary: 'Accept-Encoding' };
    const body = Buffer.from(page);
    const encoding = body.length >= COMPRESS_THRESHOLD ? chooseEncoding(c.req.header('Accept-Encoding')) : undefined;
    if (encoding) headers['Content-Encoding'] = encoding;
    const out = encoding ? await encodeAnswer(body, encoding) : body;
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(out), { status: 200, headers });
  };
}
