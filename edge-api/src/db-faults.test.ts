import { mkdtemp, rm } from 'node:fs/promises';
import { testLogger } from './testing/test-logs.ts';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/connect.ts';
import { isDatabaseUnavailable } from './db/faults.ts';
import { parseEnv } from './env.ts';
import { silentLogger } from './lib/logger.ts';
import { startNodeServer, type RunningServer } from './node-server.ts';
import { demoLoginsIn } from './testing/demo-logins.ts';
import { freePort } from './testing/free-port.ts';

// Issue 11, item 7: the API between a TCP proxy and Postgres. The proxy cuts the database off (every
// connection reset, new ones refused) and stalls it (connections open, nothing passes); the API answers
// 503 with Retry-After meanwhile, the process stays up, and it serves again once the database is back.

/** Where the Postgres of the test run listens: a TCP host and port, or a unix socket. */
function upstreamOf(databaseUrl: string): { path: string } | { host: string; port: number } {
  const url = new URL(databaseUrl);
  const port = Number(url.port || 5432);
  const socketDir = url.searchParams.get('host');
  if (socketDir?.startsWith('/')) return { path: join(socketDir, `.s.PGSQL.${port}`) };
  return { host: url.hostname || '127.0.0.1', port };
}

/** A TCP proxy to Postgres that can cut or stall every connection. */
class FaultyProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<[Socket, Socket]>();
  private stalled = false;
  readonly port: number;
  private readonly upstream: { path: string } | { host: string; port: number };
  constructor(port: number, upstream: { path: string } | { host: string; port: number }) {
    this.port = port;
    this.upstream = upstream;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.upstream);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.stalled) this.pause(pair);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** The database is gone: every connection reset, new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** The database stalls: connections stay open (new ones too) and nothing passes either way. */
  stall(): void {
    this.stalled = true;
    for (const pair of this.pairs) this.pause(pair);
  }

  resume(): void {
    this.stalled = false;
    for (const [client, upstream] of this.pairs) {
      client.resume();
      upstream.resume();
    }
  }

  private pause([client, upstream]: [Socket, Socket]) {
    client.pause();
    upstream.pause();
  }
}

let proxy: FaultyProxy;
let databaseUrlThrough: (port: number) => string;
let server: RunningServer;
let dataDir: string;
const database = `fault_${crypto.randomUUID().replaceAll('-', '')}`;
const testUrl = () => process.env.TEST_DATABASE_URL!;

beforeAll(async () => {
  const admin = openDatabase({ databaseUrl: testUrl(), maxConnections: 1 });
  await sql`create database ${sql.id(database)}`.execute(admin);
  await admin.destroy();
  proxy = new FaultyProxy(await freePort(), upstreamOf(testUrl()));
  await proxy.listen();
  const url = new URL(testUrl());
  databaseUrlThrough = (port) => `postgres://${url.username || 'postgres'}${url.password ? `:${url.password}` : ''}@127.0.0.1:${port}/${database}`;
  const databaseUrl = databaseUrlThrough(proxy.port);
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-faults-'));
  server = await startNodeServer(
    // The default timeouts: a stalled database answers 503 within 2 s with them (decision 042).
    parseEnv({ PORT: '0', DATA_DIR: dataDir, DATABASE_URL: databaseUrl }),
    { logger: testLogger(), staticRoot: dataDir },
  );
}, 120_000);

afterAll(async () => {
  proxy?.resume();
  if (proxy && !proxy.listening) await proxy.listen();
  await server?.close();
  const admin = openDatabase({ databaseUrl: testUrl(), maxConnections: 1 });
  await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin);
  await admin.destroy();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** One request, given up on after 10 s: a hang fails the test instead of holding it. */
async function get(path: string, token?: string): Promise<{ status: number; retryAfter: string | null; code?: string }> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const response = await fetch(`${server.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body?.error?.code };
}

function signIn(): Promise<Response> {
  return demoLoginsIn(dataDir).then((logins) =>
    fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: 'sb_publishable_embedded' },
      // The demo admin's password is this data directory's own (decision 046).
      body: JSON.stringify(logins.admin),
      signal: AbortSignal.timeout(10_000),
    }),
  );
}

const signInStatus = async () => (await signIn()).status;

/** Asks until the services answer 200 again; the number of attempts, one every 250 ms (at most 20: 5 s). */
async function recovers(): Promise<number> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    if ((await get('/api/services')).status === 200) return attempt;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the API did not recover within 5 s of the database coming back');
}

describe('the API when its database fails', () => {
  it('answers normally through the proxy', async () => {
    expect((await get('/api/services')).status).toBe(200);
    expect(await signInStatus()).toBe(200);
  });

  it('answers 503 with Retry-After while the database is cut off, stays up, and recovers once it is back', async () => {
    await proxy.cut();
    for (const path of ['/api/services', '/api/settings']) {
      const answer = await get(path);
      expect(answer).toMatchObject({ status: 503, retryAfter: '2', code: 'unavailable' });
    }
    expect(await signInStatus()).toBe(503);
    // Several at once, as a shop's clients would: none hangs, none crashes the process.
    const burst = await Promise.all(Array.from({ length: 15 }, () => get('/api/services')));
    expect(burst.every((answer) => answer.status === 503)).toBe(true);

    await proxy.listen();
    await recovers();
    expect(await signInStatus()).toBe(200);
  });

  it('answers 503 with Retry-After while the database stalls, and recovers once it answers again', async () => {
    // A session the API has not seen yet: its first request asks the database whether it lives.
    const { access_token: token } = (await (await signIn()).json()) as { access_token: string };
    proxy.stall();
    // More requests than the pool has connections: the first ones wait on a stalled statement, the others for a connection.
    const answers = await Promise.all(Array.from({ length: 15 }, () => get('/api/services')));
    expect(answers.every((answer) => answer.status === 503 && answer.retryAfter === '2' && answer.code === 'unavailable')).toBe(true);
    expect(await signInStatus()).toBe(503);
    // Signed in, the same answer: a stalled session check is no configuration fault (decision 114).
    expect(await get('/api/admin/audit', token)).toMatchObject({ status: 503, retryAfter: '2', code: 'unavailable' });

    proxy.resume();
    await recovers();
    expect(await signInStatus()).toBe(200);
  });

  it('tells a stalled database from a slow statement: a long statement on a live database runs to its end, a stall fails at once whatever the statement timeout', async () => {
    // A shop that allows statements a minute: the statement timeout alone would hold a stalled request that long.
    const db = openDatabase({ databaseUrl: databaseUrlThrough(proxy.port), timeouts: { connectMs: 1500, statementMs: 60_000 } });
    try {
      const slow = await sql<{ done: number }>`select 1 as done from pg_sleep(1.5)`.execute(db);
      expect(slow.rows).toEqual([{ done: 1 }]);

      proxy.stall();
      const stalled = await sql`select 1`.execute(db).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(stalled)).toBe(true);
      // Until the database answers again, a statement is refused at once instead of waiting on it.
      const meanwhile = await sql`select 2`.execute(db).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(meanwhile)).toBe(true);

      proxy.resume();
      let back = false;
      for (let attempt = 0; attempt < 20 && !back; attempt++) {
        back = await sql`select 1`.execute(db).then(
          () => true,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 250));
            return false;
          },
        );
      }
      expect(back).toBe(true);
    } finally {
      proxy.resume();
      await db.destroy();
    }
  }, 20_000);
});

describe('a start while the database is down', () => {
  it('waits for the database, saying so, instead of exiting, and serves once it answers', async () => {
    const late = new FaultyProxy(await freePort(), upstreamOf(testUrl()));
    const lines: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => lines.push(message), info: (message: string) => lines.push(message) };
    const dir = await mkdtemp(join(tmpdir(), 'storefront-faults-late-'));
    // A database of its own: its data keys are those of this data directory.
    const lateDatabase = `${database}_late`;
    const admin = openDatabase({ databaseUrl: testUrl(), maxConnections: 1 });
    await sql`create database ${sql.id(lateDatabase)}`.execute(admin);
    const lateUrl = databaseUrlThrough(late.port).replace(new RegExp(`/${database}$`), `/${lateDatabase}`);
    const starting = startNodeServer(parseEnv({ PORT: '0', DATA_DIR: dir, DATABASE_URL: lateUrl, DEMO_DATA: '0' }), {
      logger,
      staticRoot: dir,
    });
    let started: RunningServer | undefined;
    try {
      for (let i = 0; i < 100 && !lines.some((line) => line.startsWith('Waiting for the database at')); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(lines.find((line) => line.startsWith('Waiting for the database at'))).toMatch(
        new RegExp(`^Waiting for the database at 127\\.0\\.0\\.1:${late.port}/${lateDatabase}: .+ Trying again in 2 s \\(attempt 1\\)\\.$`),
      );
      expect(lines.join('\n')).not.toContain(new URL(testUrl()).password || 'no password in the URL');
      await late.listen();
      started = await starting;
      expect((await fetch(`${started.url}/api/services`)).status).toBe(200);
    } finally {
      await started?.close();
      await late.cut();
      await sql`drop database if exists ${sql.id(lateDatabase)} with (force)`.execute(admin);
      await admin.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
