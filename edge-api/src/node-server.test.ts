import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { testLogger } from './testing/test-logs.ts';
import { generateKey } from './lib/secrets.ts';
import { startNodeServer, type RunningServer } from './node-server.ts';
import { demoLoginsIn } from './testing/demo-logins.ts';
import { expectEntryHeaders } from './testing/entry-headers.ts';
import { expectOperatorSignals } from './testing/operator-signals.ts';

// The embedded mode as `npm start` runs it, in-process: the embedded Postgres server, the auth server, demo data, one port.
let dataDir: string;
let staticRoot: string;
let server: RunningServer;

const start = (env: Record<string, string> = {}) => startNodeServer(parseEnv({ PORT: '0', DATA_DIR: dataDir, ...env }), { logger: testLogger(), staticRoot });

/** A build as vite leaves it in dist/: the shell, the service worker, the manifest, a hashed chunk and its map. */
async function fakeBuild(root: string) {
  await mkdir(join(root, 'assets'), { recursive: true });
  await mkdir(join(root, '.vite'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Shop</title>');
  await writeFile(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(join(root, 'manifest.webmanifest'), '{"name":"Shop"}');
  await writeFile(join(root, 'assets', 'app-B4xk9a.js'), 'console.log("app");');
  await writeFile(join(root, 'assets', 'app-B4xk9a.js.map'), '{"version":3,"sources":["app.tsx"]}');
  await writeFile(join(root, '.vite', 'manifest.json'), '{}');
  // As the build's precompress step leaves them: brotli and gzip beside a compressible file.
  await writeFile(join(root, 'assets', 'big-C9d1e2.js'), BIG_JS);
  await writeFile(join(root, 'assets', 'big-C9d1e2.js.br'), brotliCompressSync(BIG_JS));
  await writeFile(join(root, 'assets', 'big-C9d1e2.js.gz'), gzipSync(BIG_JS));
}

const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const item${i} = "the same words again ${i}";`).join('\n');

/** The raw answer, as a browser receives it before decoding: fetch() would decode it for us. */
function rawGet(path: string, acceptEncoding?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((done, fail) => {
    httpGet(`${server.url}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', fail);
  });
}

async function signIn(role: 'admin' | 'moderator' | 'user') {
  const login = (await demoLoginsIn(dataDir))[role];
  const config = (await (await fetch(`${server.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
  const supabase = createClient(new URL(config.supabaseUrl, server.url).toString(), config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email: login.email, password: login.password });
  if (error) throw error;
  return { token: data.session.access_token, id: data.user.id };
}

const get = (path: string, token?: string) => fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-node-'));
  staticRoot = await mkdtemp(join(tmpdir(), 'storefront-dist-'));
  await fakeBuild(staticRoot);
  server = await start();
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticRoot, { recursive: true, force: true });
});

describe('the embedded server', () => {
  it('answers /healthz and /readyz, and an X-Request-Id on every answer (issue 28)', async () => {
    await expectOperatorSignals(server.url);
  });

  it('seeds an empty database and lists the demo services', async () => {
    expect(server.demoLoginsSeeded).toBe(true);
    const response = await get('/api/services');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const services = (await response.json()) as { category: string }[];
    expect(new Set(services.map((s) => s.category))).toEqual(new Set(['documents', 'editableFile', 'wise', 'vps']));
    // Passwords of this data directory, handed back once; the dashboard learns it is a demo shop.
    expect(server.demoLogins?.find((login) => login.role === 'admin')?.password).toBe((await demoLoginsIn(dataDir)).admin.password);
    expect(server.demoShop).toBe(true);
    expect(((await (await get('/api/config')).json()) as { demo: boolean }).demo).toBe(true);
  });

  it("accepts the demo admin's supabase-js token on staff routes and keeps customers to their own data", async () => {
    const admin = await signIn('admin');
    const customer = await signIn('user');
    expect((await get('/api/admin/orders', admin.token)).status).toBe(200);
    expect((await get('/api/admin/orders', customer.token)).status).toBe(403);
    expect((await get('/api/admin/orders')).status).toBe(401);
    expect((await get(`/api/orders/user/${customer.id}`, customer.token)).status).toBe(200);
    expect((await get(`/api/orders/user/${admin.id}`, customer.token)).status).toBe(403);
  });

  it('keeps every row across a restart and does not seed twice', async () => {
    const admin = await signIn('admin');
    const before = (await (await get('/api/admin/orders?limit=100', admin.token)).json()) as { total: number };
    const services = ((await (await get('/api/services')).json()) as unknown[]).length;
    await server.close();
    server = await start();
    expect(server.demoLoginsSeeded).toBe(false);
    const again = await signIn('admin');
    const after = (await (await get('/api/admin/orders?limit=100', again.token)).json()) as { total: number };
    expect(after.total).toBe(before.total);
    expect(((await (await get('/api/services')).json()) as unknown[]).length).toBe(services);
  });

  it('answers with the shared security and caching headers, and serves no source map or build file', async () => {
    await expectEntryHeaders(server.url, { hashedAsset: '/assets/app-B4xk9a.js', sourceMap: '/assets/app-B4xk9a.js.map' });
    expect((await get('/.vite/manifest.json')).status).toBe(404);
    // The auth server's private answers too: a session with its tokens, the user, an error.
    const { supabaseAnonKey } = (await (await get('/api/config')).json()) as { supabaseAnonKey: string };
    const login = (await demoLoginsIn(dataDir)).user;
    const token = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: supabaseAnonKey, 'content-type': 'application/json' },
      body: JSON.stringify(login),
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const { access_token } = (await token.json()) as { access_token: string };
    const user = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: supabaseAnonKey, authorization: `Bearer ${access_token}` } });
    expect(user.headers.get('cache-control')).toBe('no-store');
    expect((await get('/api/wise-stocks', access_token)).headers.get('cache-control')).toBe('no-store');
  });

  it('serves the build compressed as it was stored (brotli, else gzip, else as is), always varying on Accept-Encoding', async () => {
    const br = await rawGet('/assets/big-C9d1e2.js', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(BIG_JS.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);

    const gz = await rawGet('/assets/big-C9d1e2.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);

    const plain = await rawGet('/assets/big-C9d1e2.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(BIG_JS);
  });

  it('compresses API answers of about 1 KB and more, and leaves small ones as they are', async () => {
    const plain = await rawGet('/api/services');
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await rawGet('/api/services', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=5, must-revalidate');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gz = await rawGet('/api/services', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));

    const small = await rawGet('/api/config', 'gzip, br');
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toHaveProperty('supabaseAnonKey');
  });

  it('tags the public list with a strong ETag per encoding and answers 304 to a tag it still holds, until a service changes', async () => {
    const rawWith = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
        httpGet(`${server.url}/api/services`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', fail);
      });
    const plain = await rawWith({});
    const br = await rawWith({ 'accept-encoding': 'br' });
    const gz = await rawWith({ 'accept-encoding': 'gzip' });
    const tag = plain.headers['etag']!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(br.headers['etag']).toBe(`${tag.slice(0, -1)}-br"`);
    expect(gz.headers['etag']).toBe(`${tag.slice(0, -1)}-gzip"`);
    // The kept copy is the same bytes every time.
    expect((await rawWith({ 'accept-encoding': 'br' })).body.equals(br.body)).toBe(true);
    for (const [ifNoneMatch, encoding] of [
      [tag, ''],
      [br.headers['etag']!, 'br'],
      [`W/${gz.headers['etag']}`, 'gzip'],
      [`"other", ${tag}`, 'br'],
    ] as const) {
      const again = await rawWith({ 'if-none-match': ifNoneMatch, ...(encoding && { 'accept-encoding': encoding }) });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['etag']).toBeDefined();
    }
    expect((await rawWith({ 'if-none-match': '"something-else"' })).status).toBe(200);

    const admin = await signIn('admin');
    const created = await fetch(`${server.url}/api/services`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Tagged anew', description: 'A new service changes the list', category: 'vps', price: '3', deliveryTime: 'instant' }),
    });
    expect(created.status).toBe(201);
    const changed = await rawWith({ 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers['etag']).not.toBe(tag);
    expect(changed.body.toString()).toContain('Tagged anew');
  });

  it('refuses to start with a data key that is not the one its data was sealed with, naming it', async () => {
    await server.close();
    await expect(start({ CREDENTIALS_KEY: generateKey() })).rejects.toThrow(/^CREDENTIALS_KEY is not the key this database's data was made with/);
    await expect(start({ BLIND_INDEX_KEY: generateKey() })).rejects.toThrow(/^BLIND_INDEX_KEY is not the key/);
    server = await start();
    expect((await get('/api/services')).status).toBe(200);
  });
});
