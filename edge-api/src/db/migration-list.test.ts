import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrationNames } from './migration-names.ts';

const folder = new URL('../../../migrations/', import.meta.url);

describe('the migration list', () => {
  // Listed by hand so the Workers bundle needs no file system: a file added to migrations/ and not to the
  // list would never run, and a name imported from another file would run the wrong one.
  it('holds every file of migrations/, each under its own name', () => {
    const files = readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -3))
      .sort();
    expect(migrationNames()).toEqual(files);
    const source = readFileSync(new URL('./migrate.ts', import.meta.url), 'utf8');
    for (const name of files) {
      const alias = source.match(new RegExp(`import \\* as (\\w+) from '\\.\\./\\.\\./\\.\\./migrations/${name}\\.ts';`))?.[1];
      expect(alias, `${name} imported`).toBeDefined();
      expect(source, `${name} listed under its own module`).toContain(`'${name}': ${alias},`);
    }
  });
});
