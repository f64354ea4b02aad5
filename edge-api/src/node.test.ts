import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createClient } from '@supabase/supabase-js';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskBlobStore } from './blobs/disk-store.ts';
import { openDatabase } from './db/connect.ts';
import { useEmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { silentLogger } from './lib/logger.ts';
import { createSecrets, decodeKey } from './lib/secrets.ts';
import { loadOrCreateLocalKeys } from './local-keys.ts';
import { seedDemoData } from './seed/demo-data.ts';
import { demoApiKey, demoPassword } from './seed/demo-passwords.ts';
import { demoLoginsIn } from './testing/demo-logins.ts';
import type { Deps } from './deps.ts';
import { appendTestLog, teeToTestLog } from './testing/test-logs.ts';

// `npm start` as a shop owner runs it: the real entry (node.ts) in its own process on the embedded
// Postgres server, stopped with signals, killed, started twice, moved from PGlite, backed up and restored.

const ROOT = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
const apps: ChildProcess[] = [];

async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-node-entry-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const app of apps) if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
  // A server of a killed app stops by itself (its watcher); wait for that before removing its files.
  for (const dir of dirs) {
    for (let i = 0; i < 200 && serverProcesses(dir).length > 0; i += 1) await new Promise((done) => setTimeout(done, 50));
    await rm(dir, { recursive: true, force: true });
  }
});

interface App {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function runScript(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  appendTestLog('node-script-out', result.stdout ?? '');
  appendTestLog('node-script-err', result.stderr ?? '');
  return result;
}

/** Which data directory each started app's URL serves, for its demo logins. */
const dataDirOf = new Map<string, string>();

function startApp(dataDir: string, env: Record<string, string> = {}): Promise<App> {
  const child = spawn(process.execPath, [join(ROOT, 'edge-api/src/node.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', SUPABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  apps.push(child);
  teeToTestLog(child, 'node-entry');
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    // Once: a later line must not name the data directory again (a test may point the URL at another one).
    const ready = () => {
      const found = output.match(/running at (http:\/\/localhost:\d+)/);
      if (!found) return;
      child.stdout!.off('data', ready);
      clearTimeout(timer);
      dataDirOf.set(found[1]!, dataDir);
      resolve({ child, url: found[1]!, output: () => output, exited });
    };
    child.stdout!.on('data', ready);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Every process whose command line names this data directory's cluster (the postmaster and its children). */
function serverProcesses(dataDir: string): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(join(dataDir, 'postgres')))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

const postmasterPid = (dataDir: string) => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').match(/\) Z /);
  } catch {
    return false;
  }
};

async function eventually(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function signIn(url: string, role: 'admin' | 'user') {
  const login = (await demoLoginsIn(dataDirOf.get(url)!))[role];
  const config = (await (await fetch(`${url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
  const supabase = createClient(new URL(config.supabaseUrl, url).toString(), config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email: login.email, password: login.password });
  if (error) throw error;
  return { token: data.session.access_token, id: data.user.id };
}

const authed = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function orderTotal(url: string): Promise<number> {
  const admin = await signIn(url, 'admin');
  const list = (await (await fetch(`${url}/api/admin/orders?limit=100`, { headers: authed(admin.token) })).json()) as { total: number };
  return list.total;
}

async function placeOrder(url: string): Promise<string> {
  const customer = await signIn(url, 'user');
  const services = (await (await fetch(`${url}/api/services`)).json()) as { id: string }[];
  const response = await fetch(`${url}/api/orders`, { method: 'POST', headers: authed(customer.token), body: JSON.stringify({ productId: services[0]!.id }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { order: { id: string } }).order.id;
}

async function customerOrderIds(url: string): Promise<string[]> {
  const customer = await signIn(url, 'user');
  const orders = (await (await fetch(`${url}/api/orders/user/${customer.id}`, { headers: authed(customer.token) })).json()) as { id: string }[];
  return orders.map((order) => order.id);
}

async function stockPasswords(url: string): Promise<string[]> {
  const admin = await signIn(url, 'admin');
  const stocks = (await (await fetch(`${url}/api/wise-stocks`, { headers: authed(admin.token) })).json()) as { wisePassword: string }[];
  return stocks.map((stock) => stock.wisePassword).sort();
}

/** Every row of every table (the migrator's own aside), as Postgres writes it, in a stable order. */
async function everyRow(databaseUrl: string): Promise<Record<string, string[]>> {
  const db = openDatabase({ databaseUrl, maxConnections: 1 });
  try {
    const tables = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_migration%' order by 1`.execute(db);
    const rows: Record<string, string[]> = {};
    for (const { name } of tables.rows) {
      rows[name] = (await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.table(name)} t order by 1`.execute(db)).rows.map((r) => r.row);
    }
    return rows;
  } finally {
    await db.destroy();
  }
}

describe('npm start on the embedded Postgres server', () => {
  it('stops its Postgres server on SIGTERM and on Ctrl-C (SIGINT), leaving no process behind', async () => {
    const dataDir = await freshDataDir();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const app = await startApp(dataDir);
      const postmaster = postmasterPid(dataDir);
      expect(isAlive(postmaster)).toBe(true);
      expect(serverProcesses(dataDir).length).toBeGreaterThan(1);
      app.child.kill(signal);
      expect(await app.exited).toBe(0);
      expect(isAlive(postmaster)).toBe(false);
      expect(serverProcesses(dataDir)).toEqual([]);
      expect(existsSync(join(dataDir, 'storefront.pid'))).toBe(false);
    }
  });

  it('keeps every order when the app is killed with kill -9, and its server does not outlive it', async () => {
    const dataDir = await freshDataDir();
    const first = await startApp(dataDir);
    const orderId = await placeOrder(first.url);
    const total = await orderTotal(first.url);
    const postmaster = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    // The watcher sees its app gone and shuts the server down cleanly.
    await eventually(() => !isAlive(postmaster));

    const second = await startApp(dataDir);
    expect(await orderTotal(second.url)).toBe(total);
    expect(await customerOrderIds(second.url)).toContain(orderId);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('stops a server left running by an app killed together with its watcher, and keeps every order', async () => {
    const dataDir = await freshDataDir();
    const first = await startApp(dataDir);
    await placeOrder(first.url);
    const total = await orderTotal(first.url);
    const postmaster = postmasterPid(dataDir);
    // The watcher (sh) runs the server; killing the app and every sh of it leaves an orphaned postmaster.
    const watchers = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, , command, ...rest]) => command === '/bin/sh' && rest.join(' ').includes('storefront-postgres') && rest.join(' ').includes(dataDir))
      .map(([pid]) => Number(pid));
    expect(watchers.length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    for (const pid of watchers) process.kill(pid, 'SIGKILL');
    await first.exited;
    await new Promise((done) => setTimeout(done, 300));
    expect(isAlive(postmaster)).toBe(true);

    const second = await startApp(dataDir);
    expect(isAlive(postmaster)).toBe(false);
    expect(await orderTotal(second.url)).toBe(total);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(serverProcesses(dataDir)).toEqual([]);
  });

  it('loses no acknowledged delivery and half-writes none when the app is killed with kill -9 during deliveries', async () => {
    const dataDir = await freshDataDir();
    const first = await startApp(dataDir);
    const orderIds: string[] = [];
    for (let i = 0; i < 24; i++) orderIds.push(await placeOrder(first.url));
    const admin = await signIn(first.url, 'admin');
    const emailOf = (id: string) => `delivered-${id.slice(-12)}@wise.test`;
    const acknowledged = new Set<string>();
    let next = 0;
    let killed = false;
    // Four staff tablets delivering at once; the app is killed after the sixth acknowledged delivery.
    const deliverer = async () => {
      while (!killed && next < orderIds.length) {
        const id = orderIds[next++]!;
        try {
          const response = await fetch(`${first.url}/api/admin/orders/${id}`, {
            method: 'PUT',
            headers: { ...authed(admin.token), 'Idempotency-Key': `deliver-${id}` },
            body: JSON.stringify({ wiseEmail: emailOf(id), wisePassword: `Pw-${id.slice(-12)}-x` }),
          });
          if (response.status === 200) acknowledged.add(id);
          if (acknowledged.size >= 6 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // The connection died with the app: not acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, deliverer));
    await first.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(6);

    const second = await startApp(dataDir);
    const again = await signIn(second.url, 'admin');
    const list = (await (await fetch(`${second.url}/api/admin/orders?limit=100`, { headers: authed(again.token) })).json()) as {
      orders: { id: string; paymentStatus: string; orderStatus: string; wiseEmail?: string | null }[];
    };
    const byId = new Map(list.orders.map((order) => [order.id, order]));
    for (const id of orderIds) {
      const order = byId.get(id)!;
      expect(order, id).toBeDefined();
      const delivered = order.wiseEmail != null;
      if (acknowledged.has(id)) expect(delivered, `acknowledged delivery of ${id} kept`).toBe(true);
      // All of a delivery or none of it: credentials, statuses and one audit row go together.
      if (delivered) expect(order, JSON.stringify(order)).toMatchObject({ paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: emailOf(id) });
      else expect(order).toMatchObject({ paymentStatus: 'pending', orderStatus: 'pending' });
      const trail = (await (await fetch(`${second.url}/api/admin/audit?entity=order&entityId=${id}`, { headers: authed(again.token) })).json()) as {
        action: string;
      }[];
      expect(trail.filter((entry) => entry.action === 'order.deliver')).toHaveLength(delivered ? 1 : 0);
    }
    // A delivery retried under its key after the restart lands once, or answers its first answer.
    const retried = [...acknowledged][0]!;
    const replay = await fetch(`${second.url}/api/admin/orders/${retried}`, {
      method: 'PUT',
      headers: { ...authed(again.token), 'Idempotency-Key': `deliver-${retried}` },
      body: JSON.stringify({ wiseEmail: emailOf(retried), wisePassword: `Pw-${retried.slice(-12)}-x` }),
    });
    expect(replay.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('on SIGTERM stops answering keep-alive clients, does not wait for a half-sent request, and exits cleanly', async () => {
    const dataDir = await freshDataDir();
    const app = await startApp(dataDir);
    const { port } = new URL(app.url);
    // A client that sent half a request and stopped.
    const half = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => half.once('connect', () => resolve()));
    half.write('POST /api/orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{"pro');
    half.on('error', () => undefined);
    // Keep-alive clients that never stop asking.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    let stop = false;
    let answeredAfterSignal = 0;
    let signalled = false;
    const ask = () =>
      new Promise<void>((resolve) => {
        const request = httpRequest({ host: '127.0.0.1', port: Number(port), path: '/api/services', agent }, (response) => {
          response.resume();
          response.on('end', () => {
            if (signalled) answeredAfterSignal++;
            resolve();
          });
        });
        request.on('error', () => resolve());
        request.end();
      });
    const clients = Array.from({ length: 4 }, async () => {
      while (!stop) await ask();
    });
    await new Promise((done) => setTimeout(done, 300));
    signalled = true;
    app.child.kill('SIGTERM');
    // The test's own timeout is the bound: before, the app kept answering as long as the clients asked.
    expect(await app.exited).toBe(0);
    stop = true;
    await Promise.all(clients);
    agent.destroy();
    half.destroy();
    // Each keep-alive connection gets about the answer that was under way, told `Connection: close` (before: 600-1,600 answers).
    expect(answeredAfterSignal).toBeLessThanOrEqual(50);
    expect(app.output()).toContain('Stopped.');
  }, 30_000);

  it('shows demo passwords of its own once, makes an admin with npm run admin while running, and removes the demo with npm run demo:remove', async () => {
    const dataDir = await freshDataDir();
    const first = await startApp(dataDir);
    const logins = await demoLoginsIn(dataDir);
    await eventually(() => first.output().includes('npm run demo:remove'));
    expect(first.output()).toContain(`admin@demo.test / ${logins.admin.password}`);
    expect(first.output()).not.toContain('demo-admin-1');
    // The demo reseller's API key (decision 141): this data directory's own, on its login's line, once.
    const keys = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as { serviceRoleKey: string };
    const demoKey = await demoApiKey(keys.serviceRoleKey);
    expect(first.output().split(demoKey)).toHaveLength(2);
    expect(first.output()).toMatch(new RegExp(`reseller@demo\\.test / demo-\\S+ +API key ${demoKey}`));
    expect(logins.admin.password).not.toBe(
      (await demoLoginsIn(await freshDataDir().then(async (other) => (await loadOrCreateLocalKeys(other), other)))).admin.password,
    );

    const made = runScript('scripts/admin.ts', ['--email', 'Boss@Shop.test', '--password', 'owner-password-1'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SUPABASE_URL: '',
    });
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('boss@shop.test is an admin');
    const config = (await (await fetch(`${first.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
    const supabase = createClient(new URL(config.supabaseUrl, first.url).toString(), config.supabaseAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const owner = await supabase.auth.signInWithPassword({ email: 'boss@shop.test', password: 'owner-password-1' });
    expect(owner.error).toBeNull();
    const me = await fetch(`${first.url}/api/users/${owner.data.user!.id}`, { headers: authed(owner.data.session!.access_token) });
    expect(((await me.json()) as { userRole: string }).userRole).toBe('admin');

    const removed = runScript('scripts/demo-remove.ts', [], { DATA_DIR: dataDir, DATABASE_URL: '', SUPABASE_URL: '' });
    expect(removed.stdout).toMatch(/Demo removed: 6 accounts, \d+ orders, 5 inventory accounts, \d+ services/);
    const demoAdmin = await supabase.auth.signInWithPassword({ email: 'admin@demo.test', password: logins.admin.password });
    expect(demoAdmin.error).not.toBeNull();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // No password on a later start, nor the demo notice once the demo is gone.
    const second = await startApp(dataDir, { DEMO_DATA: '0' });
    expect(second.output()).not.toContain(logins.admin.password);
    expect(second.output()).not.toContain('This is a demo shop');
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  }, 90_000); // two starts and two scripts: slow on a loaded machine

  it('still shows the demo logins on the next start when the first start found its port taken', async () => {
    const dataDir = await freshDataDir();
    const blocker = createNetServer();
    await new Promise<void>((done) => blocker.listen(0, '0.0.0.0', () => done()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      await expect(startApp(dataDir, { PORT: String(port) })).rejects.toThrow(`Port ${port} is already in use by another program: set PORT to a free one.`);
    } finally {
      await new Promise<void>((done) => blocker.close(() => done()));
    }
    const app = await startApp(dataDir);
    await eventually(() => app.output().includes('npm run demo:remove'));
    expect(app.output()).toContain(`admin@demo.test / ${(await demoLoginsIn(dataDir)).admin.password}`);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it('refuses a second app on the same DATA_DIR with a clear error, and the first keeps serving', async () => {
    const dataDir = await freshDataDir();
    const first = await startApp(dataDir);
    const second = startApp(dataDir);
    await expect(second).rejects.toThrow(new RegExp(`Another storefront \\(process ${first.child.pid}\\) is already running on DATA_DIR ${dataDir}`));
    expect((await fetch(`${first.url}/api/services`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  // Two databases, a full seed and a start: 15 s alone, over 30 s while the whole suite shares two cores.
  it('moves a PGlite DATA_DIR of an earlier version into the server on the first start, keys and all', { timeout: 90_000 }, async () => {
    const dataDir = await freshDataDir();
    // The earlier version's data directory: migrations and demo data in DATA_DIR/pglite, keys in keys.json.
    const keys = await loadOrCreateLocalKeys(dataDir);
    const pglite = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    const old = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    await migrateToLatest(old);
    const secrets = await createSecrets(decodeKey(keys.credentialsKey, 'credentials'), decodeKey(keys.blindIndexKey, 'blind index'));
    const blobs = await createDiskBlobStore(join(dataDir, 'files'), decodeKey(keys.fileSigningKey, 'file signing key'));
    await seedDemoData({ db: old, secrets, blobs, clock: () => new Date(), logger: silentLogger } as unknown as Deps, (email) =>
      demoPassword(keys.serviceRoleKey, email),
    );
    const oldOrders = Number((await sql<{ n: string }>`select count(*) as n from orders`.execute(old)).rows[0]!.n);
    await old.destroy();
    expect(oldOrders).toBeGreaterThan(0);

    const app = await startApp(dataDir);
    expect(app.output()).toContain('Moved the database from PGlite');
    expect(await orderTotal(app.url)).toBe(oldOrders);
    // Read with the same keys: the delivered and stocked passwords are still readable.
    expect(await stockPasswords(app.url)).toContain('Wise#Arif2026');
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(readdirSync(dataDir).some((name) => name.startsWith('pglite-moved-'))).toBe(true);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  // Two databases, a full seed and a start: 15 s alone, over 30 s while the whole suite shares two cores.
  it('backs up a running shop to one file and restores it into an empty DATA_DIR with every row of every table', { timeout: 90_000 }, async () => {
    const source = await freshDataDir();
    const target = await freshDataDir();
    const backupDir = await freshDataDir();
    const app = await startApp(source);
    const placed = await placeOrder(app.url);

    const backup = runScript('scripts/backup.ts', ['--out', join(backupDir, 'shop.backup.gz')], { DATA_DIR: source });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('Keys written:');
    // The keys go apart from the backup, and hold only what a restore needs (decision 165).
    expect(existsSync(join(backupDir, 'shop.backup.gz.keys.json'))).toBe(false);
    const keysFile = join(source, 'backup-keys', 'shop.backup.gz.keys.json');
    expect(Object.keys(JSON.parse(readFileSync(keysFile, 'utf8')) as object).sort()).toEqual(['blindIndexKey', 'credentialsKey', 'vapid']);
    // A backup without its keys is refused, and the target stays empty for the next try.
    const keyless = runScript('scripts/backup.ts', ['--out', join(backupDir, 'keyless.backup.gz'), '--keys', 'none'], { DATA_DIR: source });
    expect(keyless.status, keyless.stderr).toBe(0);
    const refused = runScript('scripts/restore.ts', [join(backupDir, 'keyless.backup.gz')], { DATA_DIR: target });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('This backup has no keys with it');
    const restore = runScript('scripts/restore.ts', [join(backupDir, 'shop.backup.gz'), '--keys', keysFile], { DATA_DIR: target });
    expect(restore.status, restore.stderr).toBe(0);

    const running = await useEmbeddedPostgres(source);
    const restored = await useEmbeddedPostgres(target);
    try {
      const before = await everyRow(running.databaseUrl);
      const after = await everyRow(restored.databaseUrl);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      expect(before.orders!.length).toBeGreaterThan(0);
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    } finally {
      await restored.release();
      await running.release();
    }
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);

    // The restored shop starts and reads its delivered passwords with the restored keys.
    const again = await startApp(target);
    // The accounts keep their passwords: the demo ones were derived from the source's keys, not restored.
    dataDirOf.set(again.url, source);
    expect(await customerOrderIds(again.url)).toContain(placed);
    expect(await stockPasswords(again.url)).toContain('Wise#Arif2026');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
