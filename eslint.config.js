import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layers point down (docs/decisions/027-import-rules-in-lint.md). Each zone names the files it governs
 * (`target`, tests and test support excepted) and what they may not import (`from`, minus `except`).
 */
const source = (dir) => [`${dir}/**/!(*.test).ts`, `${dir}/**/!(*.test).tsx`];

/** Everything under `dir` except the folders and files named (relative to `dir`). */
const allBut = (dir, allowed, message) => ({ from: dir, except: allowed.map((name) => `./${name}`), message });

const pwaFeatures = readdirSync('pwa/src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const pwaZones = [
  { target: source('pwa/src/lib'), ...allBut('pwa/src', ['lib'], 'lib/ is the bottom of the PWA: it imports nothing of db, components, features or app.') },
  { target: source('pwa/src/db'), ...allBut('pwa/src', ['db', 'lib'], 'db/ imports only lib/.') },
  { target: source('pwa/src/components'), ...allBut('pwa/src', ['components', 'db', 'lib'], 'Shared components import only db/ and lib/.') },
  { target: source('pwa/src/features'), from: 'pwa/src/app', message: 'Features never import app/: app/ composes them.' },
  ...pwaFeatures.map((feature) => ({
    target: source(`pwa/src/features/${feature}`),
    ...allBut('pwa/src/features', [feature], 'Features never import each other; share through components/, db/ or lib/.'),
  })),
  {
    target: [...source('pwa/src/!(test)'), 'pwa/src/*.{ts,tsx}'],
    ...allBut('edge-api/src', ['contract'], "The PWA imports only the contract of the server, and AppType's declarations through '@api-types'."),
  },
  {
    target: ['pwa/**/*.test.{ts,tsx}', 'pwa/src/test/**'],
    ...allBut('edge-api/src', ['contract', 'testing'], 'PWA tests import the contract and the test harness of the server.'),
  },
];

const api = 'edge-api/src';
const apiZones = [
  { target: source(`${api}/contract`), ...allBut(api, ['contract'], 'The contract stands alone: the PWA imports it.') },
  {
    target: source(`${api}/db`),
    ...allBut(api, ['db', 'contract', 'lib'], 'db/ holds queries and the database server: it imports only the contract and lib/.'),
  },
  { target: source(`${api}/lib`), ...allBut(api, ['lib', 'contract', 'errors.ts'], 'lib/ imports nothing above it.') },
  {
    target: source(`${api}/presenters`),
    ...allBut(api, ['presenters', 'db', 'contract', 'blobs', 'lib', 'deps.ts'], 'presenters/ turn rows into answers: no routes, operations or middleware.'),
  },
  {
    target: source(`${api}/operations`),
    ...allBut(api, ['operations', 'presenters', 'db', 'contract', 'blobs', 'lib', 'errors.ts', 'deps.ts'], 'operations/ sit below the routes.'),
  },
  {
    target: source(`${api}/payments`),
    ...allBut(
      api,
      ['payments', 'operations', 'presenters', 'db', 'contract', 'lib', 'push', 'errors.ts', 'deps.ts'],
      'payments/ (the rails) sit below the routes and above operations.',
    ),
  },
  {
    target: source(`${api}/middleware`),
    ...allBut(api, ['middleware', 'auth', 'db', 'contract', 'lib', 'errors.ts', 'deps.ts'], 'Middleware sits below the routes.'),
  },
  {
    target: source(`${api}/auth`),
    ...allBut(api, ['auth', 'db', 'contract', 'lib', 'deps.ts', 'errors.ts'], 'auth/ (token checks, the embedded auth server) sits below the routes.'),
  },
  {
    target: source(`${api}/push`),
    ...allBut(api, ['push', 'db', 'contract', 'lib', 'deps.ts'], 'push/ sends notices: it imports only db/, the contract and lib/.'),
  },
  { target: source(`${api}/blobs`), ...allBut(api, ['blobs', 'contract', 'lib'], 'blobs/ store files: they know nothing of the database or the routes.') },
  {
    target: source(`${api}/webhooks`),
    ...allBut(api, ['webhooks', 'db', 'contract', 'lib', 'deps.ts'], 'webhooks/ deliver queued events: they import only db/, the contract and lib/.'),
  },
  {
    target: source(`${api}/metrics`),
    ...allBut(api, ['metrics', 'db', 'auth', 'contract', 'lib'], 'metrics/ read counters: no routes, operations or entries.'),
  },
  {
    target: source(`${api}/backup`),
    ...allBut(api, ['backup', 'db', 'lib', 'env.ts'], 'backup/ copies the database: it imports only db/, lib/ and the environment.'),
  },
  {
    target: source(`${api}/seed`),
    ...allBut(
      api,
      ['seed', 'db', 'contract', 'operations', 'presenters', 'auth', 'blobs', 'lib', 'deps.ts', 'errors.ts'],
      'seed/ (the demo shop) writes through db/ and operations/: never through routes, middleware or the entries.',
    ),
  },
  { target: source(`${api}/routes`), from: `${api}/routes`, message: 'One file per resource: routes never import each other; createApp composes them.' },
  {
    target: source(`${api}/routes`),
    from: [`${api}/app.ts`, `${api}/node.ts`, `${api}/node-server.ts`, `${api}/worker.ts`],
    message: 'Routes never import the app or its entries.',
  },
];

/** What no server code may import, whatever its folder: the PWA, and (for migrations) the app itself. */
const serverZones = [
  { target: ['edge-api/**/*.ts', 'migrations/**/*.ts'], from: 'pwa', message: 'Server code never imports the PWA: share through edge-api/src/contract.' },
  {
    target: ['migrations/**/*.ts'],
    from: ['edge-api', 'scripts'],
    message: 'A migration is frozen once it ran: it uses Kysely only, never the app code that goes on changing.',
  },
];

/**
 * `import { z } from 'zod'` makes esbuild (wrangler's bundler) keep zod's whole namespace, every locale
 * included: 260 KiB of the Worker (decision 150). The namespace import is shaken.
 */
const zodNamespace = [
  "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[importKind='value'][imported.name='z']",
  "ImportDeclaration[source.value='zod'][importKind='value'] > ImportDefaultSpecifier",
].map((selector) => ({ selector, message: "import * as z from 'zod' (decision 150: the named z keeps every zod locale in the Worker)." }));

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'node_modules', '.data', '.data-*', '.wrangler', 'coverage', '.types'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['pwa/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      // Type-only imports are erased and never form a cycle at run time; the rule skips them.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...pwaZones, ...apiZones, ...serverZones] }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...zodNamespace] },
  },
  {
    // Short functions and files (issue 34 item 1). Functions that were longer before the rule came carry an
    // eslint-disable line naming the issue, so the rule holds for everything new and the debt stays visible.
    files: ['pwa/src/**/*.{ts,tsx}', 'edge-api/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'edge-api/src/testing/**', 'pwa/src/test/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['pwa/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/edge-api/src/app.ts'], message: "The PWA takes the type AppType through '@api-types' (decision 257), never the server app." },
            { group: ['@api-types'], allowTypeImports: true, message: "'@api-types' holds declarations only: import type." },
          ],
        },
      ],
    },
  },
);
