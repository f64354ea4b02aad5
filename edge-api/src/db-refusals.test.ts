import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/connect.ts';
import type { Database } from './db/schema.ts';
import { parseEnv } from './env.ts';
import type { Logger } from './lib/logger.ts';
import { currentRequestId } from './lib/request-context.ts';
import { startNodeServer, type RunningServer } from './node-server.ts';
import { demoLoginsIn } from './testing/demo-logins.ts';

// Issue 28 item 4, decision 114: a database that is there but refuses (read-only, out of connections, a lock
// held past the statement timeout, a full disk) answers 503 `unavailable` with Retry-After, one log line
// without a stack, and the API serves again once the fault is gone. Real Postgres refusals: the app runs
// as a role of its own (a superuser is exempt from connection limits), and its database is made read-only,
// its role limited, a table locked; the errors no test can cause for real without root (a full disk, out
// of memory, a file system remounted read-only) are raised by a trigger, with Postgres's own codes and
// texts, so they come back through pg and the app exactly as the real ones do.

const suffix = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
const database = `refusals_${suffix}`;
const role = `shop_${suffix}`;
const password = crypto.randomUUID();
let admin: Kysely<Database>;
let inDatabase: Kysely<Database>;
let server: RunningServer;
let dataDir: string;
let token: string;

interface Line {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
  /** As consoleLogger tags a line written while a request runs. */
  requestId?: string;
}
const lines: Line[] = [];
const log = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields, requestId: currentRequestId() });
const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };
const withStack = (line: Line) => Object.values(line.fields ?? {}).some((value) => typeof value === 'string' && /\n\s+at /.test(value));

const urlTo = (db: string, credentials?: { user: string; password: string }) => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${db}`;
  if (credentials) {
    url.username = credentials.user;
    url.password = credentials.password;
  }
  return url.toString();
};

beforeAll(async () => {
  admin = openDatabase({ databaseUrl: urlTo(new URL(process.env.TEST_DATABASE_URL!).pathname.slice(1)), maxConnections: 1 });
  await sql`create role ${sql.id(role)} login password ${sql.lit(password)}`.execute(admin);
  await sql`create database ${sql.id(database)} owner ${sql.id(role)}`.execute(admin);
  inDatabase = openDatabase({ databaseUrl: urlTo(database), maxConnections: 2 });
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-refusals-'));
  server = await startNodeServer(
    parseEnv({
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: urlTo(database, { user: role, password }),
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_CONNECT_TIMEOUT_MS: '500',
    }),
    { logger, staticRoot: dataDir },
  );
  token = await signIn();
}, 120_000);

/** A new session of the demo admin: its first request asks the database whether it lives. */
async function signIn(): Promise<string> {
  const response = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'sb_publishable_embedded' },
    body: JSON.stringify((await demoLoginsIn(dataDir)).admin),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

afterAll(async () => {
  await server?.close();
  await inDatabase?.destroy();
  await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin);
  await sql`drop role if exists ${sql.id(role)}`.execute(admin);
  await admin?.destroy();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** The app's connections end, so its next ones take the database's and the role's settings as they are now. */
async function reconnectTheApp(): Promise<void> {
  await sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${role}`.execute(admin);
  for (let i = 0; i < 50; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where usename = ${role}`.execute(admin);
    if (rows[0]!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // pg hears of each end and drops those connections from the pool.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

interface Answer {
  status: number;
  retryAfter: string | null;
  code?: string;
  body: unknown;
  /** What the server logged for this request (the shop's background jobs log their own lines meanwhile). */
  logged: Line[];
}

async function call(method: 'GET' | 'PUT', path: string, body?: unknown, as = token): Promise<Answer> {
  const from = lines.length;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${as}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
  const id = response.headers.get('x-request-id');
  const logged = lines.slice(from);
  // No line at all with a stack while a fault lasts, the background jobs' included.
  expect(logged.filter(withStack)).toEqual([]);
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    code: json?.error?.code,
    body: json,
    logged: logged.filter((line) => line.requestId === id),
  };
}

/** The shop's settings saved as they are: a write of a row and its audit line. */
async function saveSettings(): Promise<Answer> {
  const read = await call('GET', '/api/settings');
  expect(read.status).toBe(200);
  return call('PUT', '/api/settings', read.body);
}

/** 503 unavailable with this Retry-After, and one warn line naming the fault, without a stack. */
function expectUnavailable(answer: Answer, fault: string, retryAfter: string) {
  expect(answer).toMatchObject({ status: 503, retryAfter, code: 'unavailable' });
  expect(answer.logged).toHaveLength(1);
  expect(answer.logged[0]).toMatchObject({ level: 'warn', message: 'database unavailable', fields: { fault } });
  expect(withStack(answer.logged[0]!)).toBe(false);
}

describe('the API when its database refuses', () => {
  it('answers writes 503 while the database is read-only, reads as usual, and writes again once it is not', async () => {
    expect((await saveSettings()).status).toBe(200);
    await sql`alter database ${sql.id(database)} set default_transaction_read_only = on`.execute(admin);
    await reconnectTheApp();
    try {
      expectUnavailable(await saveSettings(), 'read_only', '10');
      expect((await call('GET', '/api/services')).status).toBe(200);
    } finally {
      await sql`alter database ${sql.id(database)} reset default_transaction_read_only`.execute(admin);
      await reconnectTheApp();
    }
    expect((await saveSettings()).status).toBe(200);
  });

  it('answers 503 while its role has no connection left, signed in or not, and serves once it has', async () => {
    const fresh = await signIn();
    await sql`alter role ${sql.id(role)} connection limit 0`.execute(admin);
    await reconnectTheApp();
    try {
      expectUnavailable(await call('GET', '/api/services'), 'too_many_connections', '2');
      // A session not seen yet is asked for in the database: the same answer, never `misconfigured`.
      expectUnavailable(await call('GET', '/api/admin/audit', undefined, fresh), 'too_many_connections', '2');
    } finally {
      await sql`alter role ${sql.id(role)} connection limit -1`.execute(admin);
    }
    expect((await call('GET', '/api/services')).status).toBe(200);
  });

  it('answers 503 when a lock holds its statements past the statement timeout, a burst of them too, and serves once the lock goes', async () => {
    const holder = openDatabase({ databaseUrl: urlTo(database), maxConnections: 1 });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.transaction().execute(async (trx) => {
      await sql`lock table settings in access exclusive mode`.execute(trx);
      locked();
      await released;
    });
    try {
      await isLocked;
      const started = Date.now();
      expectUnavailable(await call('GET', '/api/settings'), 'stalled', '2');
      // More requests than the pool has connections: those that wait for one give up after DB_CONNECT_TIMEOUT_MS.
      const burst = await Promise.all(Array.from({ length: 14 }, () => call('GET', '/api/settings')));
      expect(burst.map((answer) => `${answer.status} ${answer.code} ${answer.retryAfter}`)).toEqual(burst.map(() => '503 unavailable 2'));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(lines.filter(withStack)).toEqual([]);
    } finally {
      release();
      await holding;
      await holder.destroy();
    }
    expect((await call('GET', '/api/settings')).status).toBe(200);
  });

  // Raised with Postgres's own code and text for each fault, by a trigger on the settings row.
  const raised = [
    { fault: 'disk_full', state: 'disk_full', message: 'could not extend file "base/16384/16385": No space left on device' },
    { fault: 'out_of_memory', state: 'out_of_memory', message: 'out of memory' },
    { fault: 'read_only', state: 'insufficient_privilege', message: 'could not create file "base/16384/16390": Read-only file system' },
    { fault: 'io_error', state: 'io_error', message: 'could not read block 0 in file "base/16384/16385": Input/output error' },
  ];
  it.each(raised)('answers $fault 503 with Retry-After 10, and writes again once it is gone', async ({ fault, state, message }) => {
    await sql`create or replace function refuse() returns trigger language plpgsql as $$
      begin raise exception using errcode = tg_argv[0], message = tg_argv[1]; end $$`.execute(inDatabase);
    await sql`create trigger refuse before insert or update on settings for each row execute function refuse(${sql.lit(state)}, ${sql.lit(message)})`.execute(
      inDatabase,
    );
    try {
      const answer = await saveSettings();
      expectUnavailable(answer, fault, '10');
      expect(answer.logged[0]!.fields).toMatchObject({ error: message, path: '/api/settings', method: 'PUT' });
    } finally {
      await sql`drop trigger refuse on settings`.execute(inDatabase);
    }
    expect((await saveSettings()).status).toBe(200);
  });
});
