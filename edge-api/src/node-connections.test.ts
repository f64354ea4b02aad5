import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/connect.ts';
import { parseEnv } from './env.ts';
import type { Logger } from './lib/logger.ts';
import { startNodeServer, type RunningServer } from './node-server.ts';

// Issue 28 item 6, decision 115: connections that cannot hold the Node entry. The limits are set short
// here; raw sockets (fetch would keep its own connections open) play the slow clients.

const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
const KEEP_ALIVE_MS = 1_000;
const CAP = 4;

const database = `conn_${crypto.randomUUID().replaceAll('-', '')}`;
let server: RunningServer;
let port: number;
let dataDir: string;
const warnings: string[] = [];
const logger: Logger = { info() {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };

beforeAll(async () => {
  const admin = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
  // A copy of the run's migrated template (decision 239): the server's start finds every migration applied.
  const template = process.env.TEST_TEMPLATE_DATABASE;
  await (template ? sql`create database ${sql.id(database)} template ${sql.id(template)}` : sql`create database ${sql.id(database)}`).execute(admin);
  await admin.destroy();
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-connections-'));
  server = await startNodeServer(
    parseEnv({
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      DEMO_DATA: '0',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      HTTP_MAX_CONNECTIONS: String(CAP),
    }),
    { logger, staticRoot: dataDir },
  );
  port = Number(new URL(server.url).port);
}, 120_000);

afterAll(async () => {
  await server?.close();
  const admin = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
  await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin);
  await admin.destroy();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** A raw connection: what it received, and when (ms after it connected) the server closed it. */
interface Client {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
}

async function open(firstBytes = ''): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const at = Date.now();
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - at)));
  // A reset (the cap) is a close like any other here.
  socket.on('error', () => undefined);
  if (firstBytes) socket.write(firstBytes);
  return { socket, received: () => Buffer.concat(chunks).toString('latin1'), closed };
}

/** Within how long a connection must be closed: the limit, Node's check interval and a loaded machine's slack. */
const within = (limitMs: number) => limitMs + 250 + 1_500;

describe('the Node entry under slow and many connections', () => {
  // The three timeouts are waited out side by side (four connections at most, the cap), then the cap alone.
  it.concurrent('closes a connection that sends its headers too slowly, with 408, after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const slow = await open('GET /api/services HTTP/1.1\r\nHost: shop\r\nAccept: */*\r\n');
    // A header line now and then does not keep it open: the headers as a whole must come in time.
    const drip = setInterval(() => slow.socket.write('X-Slow: 1\r\n'), 200);
    const silent = await open();
    try {
      const [slowMs, silentMs] = await Promise.all([slow.closed, silent.closed]);
      expect(slowMs).toBeGreaterThanOrEqual(HEADERS_MS - 50);
      expect(slowMs).toBeLessThan(within(HEADERS_MS));
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
      // A connection that sends nothing at all goes the same way.
      expect(silentMs).toBeGreaterThanOrEqual(HEADERS_MS - 50);
      expect(silentMs).toBeLessThan(within(HEADERS_MS));
    } finally {
      clearInterval(drip);
    }
  });

  it.concurrent('closes a request whose body comes too slowly after HTTP_REQUEST_TIMEOUT_MS', async () => {
    const body = JSON.stringify({ email: 'someone@example.com', password: 'not the password' });
    const slow = await open(
      `POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: shop\r\napikey: sb_publishable_embedded\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    let sent = 5;
    // One byte every 300 ms: the body would take 20 s.
    const drip = setInterval(() => sent < body.length - 1 && slow.socket.write(body[sent++]!), 300);
    try {
      const ms = await slow.closed;
      expect(ms).toBeGreaterThanOrEqual(REQUEST_MS - 50);
      expect(ms).toBeLessThan(within(REQUEST_MS));
    } finally {
      clearInterval(drip);
    }
  });

  it.concurrent('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS, and says so in Keep-Alive', async () => {
    const client = await open('GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n');
    const ms = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    // Node keeps the socket a little past the advertised time (keepAliveTimeoutBuffer), so the client closes first.
    expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
    expect(ms).toBeLessThan(within(KEEP_ALIVE_MS + 1_000));
  });

  it('closes connections past HTTP_MAX_CONNECTIONS at once, logs that once, and serves again when one goes', async () => {
    const holders = await Promise.all(Array.from({ length: CAP }, () => open('GET /healthz HTTP/1.1\r\n')));
    try {
      // The server counts a connection once it has accepted it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await Promise.all([open(), open()]);
      for (const client of refused) {
        expect(await client.closed).toBeLessThan(500);
        expect(client.received()).toBe('');
      }
      expect(warnings.filter((line) => line.startsWith('connection cap reached'))).toHaveLength(1);
      expect(holders.map((holder) => holder.socket.destroyed)).toEqual(holders.map(() => false));
    } finally {
      for (const holder of holders) holder.socket.destroy();
    }
    await Promise.all(holders.map((holder) => holder.closed));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const served = await open('GET /healthz HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n');
    await served.closed;
    expect(served.received()).toMatch(/^HTTP\/1\.1 200 /);
  });
});
