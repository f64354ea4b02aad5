import type { Plugin } from 'vite';

// The server render of the public pages (pwa/src/server-render.tsx, decision 053) is bundled into the
// Cloudflare Worker: whatever it can reach is uploaded and parsed on every cold start (decision 150). The
// components it renders are the app's own, and some of them load the device's code (Dexie, the sync
// engine, HEIC conversion), the API client, web push or the auth library when a person taps something or
// once the page has loaded. Those loads are `import()`s that never run while React renders to a string
// (no effect, no handler runs on the server), so the server build points them at one module that throws,
// and fails if any browser-only module is reached at all.

/** Packages that only run in a browser: the server render must never carry them. */
export const BROWSER_ONLY_PACKAGES = ['dexie', 'dexie-react-hooks', 'heic2any', '@supabase/auth-js', '@supabase/supabase-js', 'workbox-window'];

/** The app's own modules that only a browser loads, by their path under pwa/src/. */
export const BROWSER_ONLY_FILES = [
  'db/local-db.ts',
  'db/device-impl.ts',
  'db/sync-engine.ts',
  'db/outbox.ts',
  'db/vault.ts',
  'lib/api-client.ts',
  'lib/image-upload.ts',
  'lib/web-push.ts',
  // The customer's bell reads the device's tickets; the public layout loads it with import() (decision 141).
  'features/support/customer-bell.tsx',
];

const STAND_IN = '\0browser-only-on-the-server';

const packageOf = (id: string): string | null => {
  const bare = id.includes('/node_modules/') ? id.split('/node_modules/').pop()! : /^[@\w]/.test(id) && !id.startsWith('\0') ? id : null;
  if (bare === null) return null;
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
};

/** Whether `id` (a resolved path or a bare package name) is a module only a browser may load. */
export function isBrowserOnly(id: string): boolean {
  const name = packageOf(id);
  if (name !== null && BROWSER_ONLY_PACKAGES.includes(name)) return true;
  const path = id.replaceAll('\\', '/').split('?')[0]!;
  return BROWSER_ONLY_FILES.some((file) => path.endsWith(`/pwa/src/${file}`));
}

/** The chain of importers from the entry to `id`, for the build's error message. */
function chainTo(id: string, importersOf: (id: string) => readonly string[]): string[] {
  const chain = [id];
  const seen = new Set(chain);
  for (let current = id; ;) {
    const next = importersOf(current).find((importer) => !seen.has(importer));
    if (next === undefined) return chain.reverse();
    chain.push(next);
    seen.add(next);
    current = next;
  }
}

/** The Vite plugin of the server build (vite build --ssr): the boundary described above. */
export function serverRenderBoundary(): Plugin {
  return {
    name: 'server-render-boundary',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild === true,
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if ((options as { kind?: string }).kind !== 'dynamic-import') return null;
      if (isBrowserOnly(source)) return STAND_IN;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved && isBrowserOnly(resolved.id) ? STAND_IN : null;
    },
    load(id) {
      if (id !== STAND_IN) return null;
      return 'throw new Error("A browser-only module was loaded by the server render of the public pages (pwa/server-render-boundary.ts)");';
    },
    generateBundle() {
      const ids = [...this.getModuleIds()];
      // An external module's info may not list its importers: the importers' lists of imports do.
      const importersOf = (id: string) =>
        ids.filter((other) => {
          const info = this.getModuleInfo(other);
          return [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])].includes(id);
        });
      const reached = ids.filter(isBrowserOnly);
      if (reached.length === 0) return;
      const chains = reached.map((id) => `  ${chainTo(id, importersOf).join('\n    -> ')}`);
      this.error(
        `The server render reaches browser-only modules (decision 150); import them with import() from code that runs in the browser only:\n${chains.join('\n')}`,
      );
    },
  };
}
