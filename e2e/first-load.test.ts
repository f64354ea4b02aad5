import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// What a phone downloads before the first paint of a public page, read from the build that the browser
// tests run (`npm run test:e2e` builds first). Dexie and the sync engine load after the first paint
// (decision 052); one static import of them from the app's frame puts them back into every first load,
// which this catches. The byte budgets themselves are the bench's (`npm run bench -- --only=first-load`).

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }>;
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Manifest;
const closure = (keys: string[], seen = new Set<string>()) => {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
};
const text = (key: string) => readFileSync(join('dist', manifest[key]!.file), 'utf8');
/** Dexie's own error class names, which minification keeps: the chunks that hold Dexie. */
const holdsDexie = (key: string) => manifest[key]!.file.endsWith('.js') && text(key).includes('DatabaseClosedError');
/** A warning only the sync engine writes. */
const holdsSyncEngine = (key: string) => manifest[key]!.file.endsWith('.js') && text(key).includes('Could not keep an image for offline use');

const publicPages = {
  '/': 'src/features/home/home-page.tsx',
  '/services': 'src/features/services/services-page.tsx',
  '/about': 'src/features/about/about-page.tsx',
  '/contact': 'src/features/contact/contact-page.tsx',
  '/proxy': 'src/features/proxy/proxy-page.tsx',
};

describe('the first load of a public page', () => {
  it('the device module (Dexie and the sync engine) is in the build, loaded later', () => {
    const device = [...closure(['src/db/device-impl.ts'])];
    assert.ok(device.some(holdsDexie), 'the device module holds Dexie');
    assert.ok(device.some(holdsSyncEngine), 'the device module holds the sync engine');
  });

  for (const [path, page] of Object.entries(publicPages)) {
    it(`${path} carries neither Dexie nor the sync engine`, () => {
      assert.ok(manifest[page], `${page} is a chunk of the build`);
      // index.html's entry loads the app (src/app-start.tsx) once the page has painted (decision 070).
      const first = [...closure(['index.html', 'src/app-start.tsx', page])];
      assert.deepEqual(first.filter(holdsDexie), [], `Dexie in the first load of ${path}`);
      assert.deepEqual(first.filter(holdsSyncEngine), [], `the sync engine in the first load of ${path}`);
    });
  }
});
