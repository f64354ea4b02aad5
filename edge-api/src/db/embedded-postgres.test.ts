import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './connect.ts';
import { ownServerCheck, startEmbeddedPostgres } from './embedded-postgres.ts';
import { databaseFault } from './faults.ts';

// What node.test.ts does not show through the app: the server's listening address and its credentials.
let root: string;
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const serverProcesses = (dir: string) =>
  spawnSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes(join(dir, 'postgres')));

describe('the embedded Postgres server', () => {
  it('listens only on a socket in its own directory, with a password, and on a free 127.0.0.1 port where a socket path would be too long', async () => {
    root = await mkdtemp(join(tmpdir(), 'storefront-pg-'));
    // Parents the server's user (as root: postgres) can pass through, as a shop's home directory is.
    await chmod(root, 0o755);
    const short = join(root, 'd');
    const long = join(root, 'a-data-directory-whose-socket-path-would-not-fit-in-sun-path'.repeat(2));
    await mkdir(long, { recursive: true, mode: 0o755 });

    for (const dataDir of [short, long]) {
      const server = await startEmbeddedPostgres(dataDir);
      const url = new URL(server.databaseUrl);
      try {
        if (dataDir === short) {
          expect(url.searchParams.get('host')).toBe(join(dataDir, 'postgres'));
        } else {
          expect(url.hostname).toBe('127.0.0.1');
          expect(Number(url.port)).toBeGreaterThan(0);
        }
        const db = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 1 });
        const settings = await sql<{ listen: string; auth: string }>`
          select current_setting('listen_addresses') as listen,
                 (select string_agg(distinct auth_method, ',') from pg_hba_file_rules) as auth`.execute(db);
        expect(settings.rows[0]!.listen).toBe(dataDir === short ? '' : '127.0.0.1');
        expect(settings.rows[0]!.auth).toBe('scram-sha-256');
        await db.destroy();
        // The password is required: without it the server refuses.
        url.password = 'wrong';
        const wrong = openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
        await expect(sql`select 1`.execute(wrong)).rejects.toThrow(/password authentication failed/);
        await wrong.destroy();
      } finally {
        await server.stop();
      }
      expect(serverProcesses(dataDir)).toEqual([]);
    }
  });

  it('serves a pool only from the server this app started: a connection to another one is refused as unreachable (decision 194)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'storefront-pg-own-'));
    await chmod(dataDir, 0o755);
    const server = await startEmbeddedPostgres(dataDir);
    try {
      const own = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 1, verify: ownServerCheck(server.instance) });
      expect((await sql<{ one: number }>`select 1 as one`.execute(own)).rows[0]!.one).toBe(1);
      await own.destroy();
      // What a pool of another app (another token) would find on this socket.
      const other = openDatabase({ databaseUrl: server.databaseUrl, maxConnections: 1, verify: ownServerCheck('someone-else') });
      const refused = await sql`select 1`.execute(other).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String(refused)).toContain('not the one this app started');
      expect(databaseFault(refused)).toBe('unreachable');
      await other.destroy();
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
