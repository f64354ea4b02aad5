import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseProject, sharedHost } from '../../scripts/typecheck.ts';

/**
 * The runtime projects of `npm run typecheck` (decision 244) refuse what their runtime lacks: one seeded
 * file, compiled with a project's options and its declaration files, next to a library whose typings
 * reference Node's (pg's do, as papaparse's and vite's), which would otherwise give Node's globals to all.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const SEEDED = resolve(ROOT, 'edge-api/src/seeded-boundary-check.ts');
const PG = "import type pg from 'pg';\nexport type Pool = pg.Pool;\n";

const hostFor = sharedHost();

function errorsOf(config: string, code: string): string[] {
  const parsed = parseProject(config);
  const host = hostFor(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => (name === SEEDED ? ts.createSourceFile(name, PG + code, version) : getSourceFile(name, version, ...rest));
  const declarations = parsed.fileNames.filter((name) => name.endsWith('.d.ts'));
  const program = ts.createProgram({ rootNames: [SEEDED, ...declarations], options: parsed.options, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
}

describe('the runtime projects (npm run typecheck)', { timeout: 180_000 }, () => {
  it("the PWA's has the DOM and no Node", () => {
    expect(errorsOf('tsconfig.pwa.json', 'export const title = document.title + navigator.onLine;')).toEqual([]);
    const errors = errorsOf('tsconfig.pwa.json', "export const x = process.env.X;\nexport const y = Buffer.from('y');");
    expect(errors.join('\n')).toMatch(/Cannot find name 'process'/);
    expect(errors.join('\n')).toMatch(/Cannot find name 'Buffer'/);
  });

  it("the Worker's has workerd's globals and nodejs_compat's declared modules, no DOM and no other Node", () => {
    const allowed =
      "import { AsyncLocalStorage } from 'node:async_hooks';\nexport const scope = new AsyncLocalStorage<number>();\nexport const cache = caches.default;";
    expect(errorsOf('tsconfig.worker.json', allowed)).toEqual([]);
    const errors = errorsOf(
      'tsconfig.worker.json',
      "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\nexport const at = window.location.href;",
    );
    expect(errors.join('\n')).toMatch(/Cannot find (module|name) 'node:fs'/);
    expect(errors.join('\n')).toMatch(/Cannot find name 'window'/);
  });

  it("Node's has Node and Web Crypto's types, no DOM", () => {
    expect(errorsOf('tsconfig.node.json', 'export const x = process.env.X;\nexport const key: CryptoKey | undefined = undefined;')).toEqual([]);
    expect(errorsOf('tsconfig.node.json', 'export const title = document.title;').join('\n')).toMatch(/Cannot find name 'document'/);
  });
});

describe("the PWA's reach into the server (npm run lint, decision 257)", { timeout: 60_000 }, () => {
  const eslint = new ESLint({ cwd: ROOT });

  /** The rules a seeded file of the PWA breaks, as lint reports them. */
  async function rulesBroken(code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, 'pwa/src/lib/seeded-boundary-check.ts') });
    return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
  }

  it("takes AppType from the server's declarations, as a type only", async () => {
    expect(await rulesBroken("import type { AppType } from '@api-types';\nexport type Api = AppType;\n")).toEqual([]);
    expect((await rulesBroken("import { AppType } from '@api-types';\nexport type Api = AppType;\n")).join('\n')).toMatch(/no-restricted-imports.*import type/);
  });

  it("never imports the server's code, even for a type", async () => {
    const app = await rulesBroken("import type { AppType } from '../../../edge-api/src/app.ts';\nexport type Api = AppType;\n");
    expect(app.join('\n')).toMatch(/no-restricted-(imports|paths)/);
    const db = await rulesBroken("import type { Db } from '../../../edge-api/src/db/handle.ts';\nexport type D = Db;\n");
    expect(db.join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });
});
