import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { serverRenderBoundary } from './pwa/server-render-boundary.ts';
import { contentSecurityPolicy, workersAssetsIgnoreFile, workersHeadersFile } from './edge-api/src/lib/http-headers.ts';

/** Files of the build worth compressing: text. Images, fonts (woff2) and maps are not. */
const compressible = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli (best quality) and gzip (level 9) of every compressible file of the build, stored beside it as
 * `.br` and `.gz`: the Node entry serves them with `Content-Encoding` and `Vary: Accept-Encoding` (its
 * serveStatic `precompressed`), so nothing is compressed per request. Runs after vite-plugin-pwa has
 * written `sw.js`, so the service worker is compressed too. Workers leave them out (.assetsignore):
 * Cloudflare compresses the assets it serves.
 */
function precompress(outDir: string) {
  const walk = async (dir: string): Promise<string[]> =>
    (await Promise.all((await readdir(dir, { withFileTypes: true })).map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])))).flat();
  return {
    name: 'precompress',
    apply: (_config: unknown, env: { command: string; isSsrBuild?: boolean }) => env.command === 'build' && !env.isSsrBuild,
    closeBundle: {
      sequential: true,
      order: 'post' as const,
      async handler() {
        const files = (await walk(outDir)).filter((file) => compressible.test(file) && !file.includes(`${outDir}/.vite/`));
        await Promise.all(
          files.map(async (file) => {
            if ((await stat(file)).size < 256) return;
            const bytes = await readFile(file);
            const br = await brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
            const gz = await gzipped(bytes, { level: 9 });
            await writeFile(`${file}.br`, br);
            await writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}

/**
 * The stylesheet goes inside index.html as a <style> element instead of a <link> (decision 070): a phone's
 * first paint then waits for one request, not two (Lighthouse counted the stylesheet as 0.3 s of render
 * blocking on a simulated slow 4G link). The app has one stylesheet, Tailwind's (main.tsx imports it), and
 * the file is dropped from the build. Vite still lists it among the dependencies of every dynamic import
 * whose chunk shares code with the entry, and its preload helper adds a <link> for a listed stylesheet
 * unless the page already has `link[rel="stylesheet"][href=...]`: a disabled one stands in for it (a
 * disabled link is never fetched), so the helper neither loads it again nor fails on the missing file.
 */
function inlineStylesheet() {
  return {
    name: 'inline-stylesheet',
    apply: (_config: unknown, env: { command: string; isSsrBuild?: boolean }) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post' as const,
    generateBundle(_options: unknown, bundle: Record<string, { type: string; fileName: string; source?: string | Uint8Array }>) {
      const html = bundle['index.html'];
      if (!html || typeof html.source !== 'string') throw new Error('inline-stylesheet: no index.html in the build');
      const links = [...html.source.matchAll(/<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g)];
      if (links.length !== 1) throw new Error(`inline-stylesheet: index.html links ${links.length} stylesheets, expected 1`);
      const [link, fileName] = links[0]!;
      const css = bundle[fileName!];
      if (!css || css.type !== 'asset') throw new Error(`inline-stylesheet: ${fileName} is not in the build`);
      const text = typeof css.source === 'string' ? css.source : new TextDecoder().decode(css.source);
      if (/<\/style/i.test(text)) throw new Error('inline-stylesheet: the stylesheet contains </style');
      html.source = html.source.replace(link, () => `<style>${text}</style><link rel="stylesheet" href="/${fileName}" disabled>`);
      // The page's content is in the HTML (decision 053) and the scripts only take it over: they are fetched
      // after what the page shows (images), and Lighthouse's simulation no longer counts them as blocking the
      // first paint (a module script runs after parsing; it never blocked the paint of a phone on 4G).
      const scripts = html.source.match(/<script type="module" crossorigin src=|<link rel="modulepreload" crossorigin href=/g) ?? [];
      if (scripts.length === 0) throw new Error('inline-stylesheet: index.html has no module script');
      html.source = html.source
        .replaceAll('<script type="module" crossorigin src=', '<script type="module" crossorigin fetchpriority="low" src=')
        .replaceAll('<link rel="modulepreload" crossorigin href=', '<link rel="modulepreload" crossorigin fetchpriority="low" href=');
      delete bundle[fileName!];
    },
  };
}

/**
 * Fails the build when chunks import one another in a circle (decision 255): the browser then evaluates one
 * of them before the chunk it reads at its top (React, once), which throws and leaves the app unstarted. The
 * bundler made one when the entry began to import the screens the app shell opens first.
 */
function noChunkCycles() {
  return {
    name: 'no-chunk-cycles',
    apply: (_config: unknown, env: { command: string; isSsrBuild?: boolean }) => env.command === 'build' && !env.isSsrBuild,
    generateBundle(_options: unknown, bundle: Record<string, { type: string; imports?: string[] }>) {
      const state = new Map<string, 'open' | 'done'>();
      const visit = (file: string, path: string[]): void => {
        if (state.get(file) === 'done') return;
        if (state.get(file) === 'open') throw new Error(`no-chunk-cycles: ${[...path.slice(path.indexOf(file)), file].join(' -> ')}`);
        state.set(file, 'open');
        for (const next of bundle[file]?.imports ?? []) visit(next, [...path, file]);
        state.set(file, 'done');
      };
      for (const [file, output] of Object.entries(bundle)) if (output.type === 'chunk') visit(file, []);
    },
  };
}

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8787';

export default defineConfig(({ isSsrBuild, command }) => ({
  root: 'pwa',
  publicDir: '../public',
  // React Router publishes a production build beside the default one, which keeps its development
  // warnings; its package exports offer no condition that picks it, so the app's build names it (the dev
  // server and the server render keep the default one, with its warnings).
  resolve: {
    alias:
      command !== 'build' || isSsrBuild
        ? []
        : [
            { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
            { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
          ],
  },
  // The manifest lets the bench measure exactly what the first load of / fetches.
  build: {
    outDir: '../dist',
    // The server render (dist-ssr/, decision 053) needs no copy of public/.
    copyPublicDir: !isSsrBuild,
    emptyOutDir: true,
    // Maps stay in dist/ for reading a stack trace locally; no script points at them, and neither entry
    // serves them (.assetsignore below, isUnpublished() on Node).
    sourcemap: 'hidden',
    manifest: true,
    modulePreload: {
      // The app's code (app-start and its chunks, imported by the entry once the page has painted) and the
      // device's code (Dexie, the sync engine, after `load` on a public page) come through their imports,
      // without the preload helper's links: it appended one per chunk in the import's task, six and nine,
      // ~1–2 ms each on a phone (decision 070). The browser fetches each level of their imports as it reads
      // them. Links in index.html instead were fetched while the page parsed, and Lighthouse's simulation
      // counted them before the largest paint (LCP 1.9 s). The screens an app-shell start opens
      // (start-route.ts: My Orders, an order's status, the dashboard) likewise: their links, about forty for
      // My Orders, took 60–200 ms of the main thread in a cold offline start's profile, for chunks the
      // service worker answers from its cache in a few milliseconds a level (issue 33 item 6).
      resolveDependencies: (file, deps) =>
        /(?:^|\/)(?:app-start|local-db|device-impl|my-orders-page|order-status-page|dashboard-frame|admin-orders-page)-[\w-]+\.js$/.test(file) ? [] : deps,
    },
    // heic2any (1.35 MB) loads only when someone picks a HEIC photo; every other chunk is far smaller.
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // React, the router and the frame's small components in one chunk (decision 070): once the entry
        // imports the app dynamically, the bundler split them into five files, 2 KB more gzipped (each
        // file compressed on its own), which put a signed-in first load over its 170 KB. Nothing here
        // imports Dexie (e2e/first-load.test.ts checks the first load carries none). The one helper its
        // components import (described-by.ts, a few lines) is in it too: left to the bundler, it shared a
        // chunk with modules that import the frame's code, and the framework chunk imported a chunk that
        // imported it back (a cycle: React was not yet evaluated when that chunk ran, decision 255).
        codeSplitting: isSsrBuild
          ? undefined
          : {
              includeDependenciesRecursively: false,
              groups: [
                {
                  name: 'framework',
                  test: /[\\/]node_modules[\\/](?:react|react-dom|react-router|scheduler)[\\/]|[\\/]pwa[\\/]src[\\/](?:components[\\/](?:confirm-dialog|toast|icons|modal-dialog)\.tsx|lib[\\/]described-by\.ts)$/,
                },
              ],
            },
      },
    },
  },
  server: {
    proxy: { '/api': apiTarget, '/auth': apiTarget, '/files': apiTarget },
  },
  plugins: [
    {
      // Workers serve dist/ without running the worker: these carry the entries' shared header rules there.
      name: 'workers-asset-config',
      apply: (_config, env) => !env.isSsrBuild,
      async generateBundle() {
        this.emitFile({ type: 'asset', fileName: '_headers', source: workersHeadersFile(await buildTimePolicy()) });
        this.emitFile({ type: 'asset', fileName: '.assetsignore', source: workersAssetsIgnoreFile() });
      },
    },
    // The server build never reaches the device's, the API client's or the auth library's code (decision 150).
    serverRenderBoundary(),
    react(),
    tailwindcss(),
    VitePWA({
      // Never reload a tab over unsaved work: the app asks first (see update-prompt.tsx).
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png', 'robots.txt'],
      manifest: {
        id: '/',
        name: 'Digital Services Hub',
        short_name: 'Services Hub',
        description: 'Digital services: editable documents, Wise accounts, VPS and proxy access, with order tracking.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#ffffff',
        theme_color: '#1e3a8a',
        categories: ['shopping', 'business'],
        icons: [
          { src: '/pwa-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: '/screenshots/wide.png', sizes: '1280x720', type: 'image/png', form_factor: 'wide', label: 'Services on a computer' },
          { src: '/screenshots/narrow.png', sizes: '720x1280', type: 'image/png', form_factor: 'narrow', label: 'Services on a phone' },
        ],
        shortcuts: [
          {
            name: 'Services',
            short_name: 'Services',
            description: 'Browse every service',
            url: '/services',
            icons: [{ src: '/pwa-192.png', sizes: '192x192', type: 'image/png' }],
          },
          {
            name: 'My Orders',
            short_name: 'My Orders',
            description: 'Track your orders and read delivered credentials',
            url: '/my-orders',
            icons: [{ src: '/pwa-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // Screenshots are for the install sheet only; HEIC conversion is part of uploading, never offline.
        globIgnores: ['screenshots/**', '**/heic2any-*.js'],
        // The first visit is already served offline next time; updates still wait for the prompt.
        clientsClaim: true,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/files\//, /\.(?:png|jpe?g|webp|gif|svg|ico)$/i],
        cleanupOutdatedCaches: true,
        // Shows web push messages and opens the order on a click (public/push-sw.js, decision 067).
        importScripts: ['/push-sw.js'],
        // Its map would be public next to it; the app's own maps are not built to be served either.
        sourcemap: false,
        // No API answer is ever cached by the worker: the app keeps its data in IndexedDB.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/files/service-images/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'public-images',
              expiration: { maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Delivered proofs and stock images (signed URLs): cache-first so they open offline; this cache
            // is deleted at logout with the user's database (PRIVATE_IMAGE_CACHE in sync-engine.ts).
            urlPattern: ({ url, sameOrigin }) =>
              (sameOrigin && url.pathname.startsWith('/files/')) || (!sameOrigin && url.pathname.includes('/storage/v1/object/sign/')),
            handler: 'CacheFirst',
            options: {
              cacheName: 'private-images',
              expiration: { maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ request, sameOrigin }) => !sameOrigin && request.destination === 'image',
            handler: 'CacheFirst',
            options: {
              cacheName: 'remote-images',
              expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
    inlineStylesheet(),
    noChunkCycles(),
    precompress(fileURLToPath(new URL('./dist', import.meta.url))),
  ],
}));

/**
 * The CSP of the static assets Workers serve without running the worker (decision 164): it names the
 * Supabase project and IMAGE_ORIGINS, from the build's environment or else wrangler.toml's [vars].
 */
async function buildTimePolicy(): Promise<string> {
  const toml = await readFile(fileURLToPath(new URL('./wrangler.toml', import.meta.url)), 'utf8').catch(() => '');
  const fromToml = (name: string) => toml.match(new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm'))?.[1];
  const supabaseUrl = process.env.SUPABASE_URL ?? fromToml('SUPABASE_URL');
  const imageOrigins = (process.env.IMAGE_ORIGINS ?? fromToml('IMAGE_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return contentSecurityPolicy({ supabaseUrl, imageOrigins });
}
