// @vitest-environment node
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../edge-api/src/contract/settings.ts';
import { graphProblems } from '../scripts/worker-bundle.ts';
import { isBrowserOnly } from './server-render-boundary.ts';

const scratch = mkdtempSync(join(tmpdir(), 'server-render-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the server render boundary (decision 150)', () => {
  it('names the browser-only packages and the device, API client and push modules, and nothing the render needs', () => {
    for (const id of [
      'dexie',
      'heic2any',
      '@supabase/auth-js',
      '/x/node_modules/dexie/dist/dexie.mjs',
      '/x/node_modules/@supabase/auth-js/dist/module/index.js',
      '/app/pwa/src/db/device-impl.ts',
      '/app/pwa/src/lib/web-push.ts',
      '/app/pwa/src/lib/api-client.ts?v=1',
    ]) {
      expect(isBrowserOnly(id), id).toBe(true);
    }
    for (const id of [
      'react',
      'react-dom/server',
      '/x/node_modules/react-router/dist/index.mjs',
      '/app/pwa/src/db/device.ts',
      '/app/pwa/src/lib/auth.tsx',
      '/app/pwa/src/lib/supabase.ts',
      '\0virtual',
    ]) {
      expect(isBrowserOnly(id), id).toBe(false);
    }
  });

  it('builds a server render that imports no browser-only module and still renders the public pages', async () => {
    const { build } = await import('vite');
    const outDir = join(scratch, 'dist-ssr');
    await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { ssr: 'src/server-render.tsx', outDir, sourcemap: false } });
    const files = [join(outDir, 'server-render.js'), ...readdirSync(join(outDir, 'assets')).map((name) => join(outDir, 'assets', name))];
    const specifiers = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/(?:from |import\()"([^"]+)"/g)].map((match) => match[1]!));
    expect(specifiers).toContain('react-dom/server');
    expect(specifiers.filter((specifier) => isBrowserOnly(specifier) || /(?:device-impl|local-db|web-push|api-client)-/.test(specifier))).toEqual([]);
    const render = (await import(join(outDir, 'server-render.js'))) as typeof import('./src/server-render.tsx');
    const html = render.renderPublicPage('<html><head><title>x</title></head><body><div id="root"></div></body></html>', '/services', {
      settings: defaultSettings,
      services: [],
    });
    expect(html).toContain('id="public-snapshot"');
  }, 120_000);

  it('fails a worker bundle that holds a browser-only package, the device code or a Node-only module', () => {
    const meta = {
      inputs: {
        'node_modules/dexie/dist/dexie.js': { bytes: 1 },
        'node_modules/heic2any/dist/heic2any.js': { bytes: 1 },
        'node_modules/@electric-sql/pglite/dist/index.js': { bytes: 1 },
        'dist-ssr/assets/device-impl-BA-thCqS.js': { bytes: 1 },
        'edge-api/src/node-server.ts': { bytes: 1 },
        'node_modules/pg/lib/index.js': { bytes: 1, imports: [{ path: 'node:child_process', kind: 'require-call', external: true }] },
        'node_modules/react-dom/server.edge.js': { bytes: 1 },
        'edge-api/src/worker.ts': { bytes: 1 },
        'node_modules/zod/v4/locales/en.js': { bytes: 1 },
        'node_modules/zod/v4/locales/he.js': { bytes: 1 },
      },
      outputs: {},
    };
    const problems = graphProblems(meta);
    expect(problems).toHaveLength(7);
    expect(problems.join('\n')).toMatch(/zod locale/);
    expect(problems.join('\n')).toMatch(/dexie[\s\S]*heic2any/);
    expect(problems.join('\n')).toMatch(/child_process/);
    expect(
      graphProblems({
        inputs: {
          'node_modules/react-dom/server.edge.js': { bytes: 1 },
          'node_modules/zod/v4/locales/en.js': { bytes: 1 },
          'edge-api/src/worker.ts': { bytes: 1 },
        },
        outputs: {},
      }),
    ).toEqual([]);
  });
});
