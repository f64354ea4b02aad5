import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { silentLogger } from './lib/logger.ts';
import { demoLogins, startNodeServer, type RunningServer } from './node-server.ts';

// The embedded mode as `npm start` runs it: PGlite on disk, the auth server, demo data, one port.
let dataDir: string;
let server: RunningServer;

const start = () => startNodeServer(parseEnv({ PORT: '0', DATA_DIR: dataDir }), { logger: silentLogger });

async function signIn(role: 'admin' | 'moderator' | 'user') {
  const login = demoLogins.find((l) => l.role === role)!;
  const config = (await (await fetch(`${server.url}/api/config`)).json()) as { supabaseUrl: string; supabaseAnonKey: string };
  const supabase = createClient(new URL(config.supabaseUrl, server.url).toString(), config.supabaseAnonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await supabase.auth.signInWithPassword({ email: login.email, password: login.password });
  if (error) throw error;
  return { token: data.session.access_token, id: data.user.id };
}

const get = (path: string, token?: string) =>
  fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-node-'));
  server = await start();
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the embedded server', () => {
  it('seeds an empty database and lists the demo services', async () => {
    expect(server.demoLoginsSeeded).toBe(true);
    const response = await get('/api/services');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const services = (await response.json()) as { category: string }[];
    expect(new Set(services.map((s) => s.category))).toEqual(new Set(['documents', 'editableFile', 'wise', 'vps']));
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
});
