import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { testLogger } from './testing/test-logs.ts';
import { startNodeServer, type RunningServer } from './node-server.ts';
import { demoLoginsIn } from './testing/demo-logins.ts';
import { insideOneWindow } from './testing/limit-window.ts';

// The Node entry reads STAFF_REVEALS_PER_10_MIN from its environment (decision 160): `npm start` with it
// set to 2 refuses the demo moderator's third stock reveal. (The Workers entry's parsing is env.test.ts.)

let dataDir: string;
let staticRoot: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storefront-reveals-'));
  staticRoot = await mkdtemp(join(tmpdir(), 'storefront-dist-'));
  await writeFile(join(staticRoot, 'index.html'), '<!doctype html><title>Shop</title>');
  server = await startNodeServer(parseEnv({ PORT: '0', DATA_DIR: dataDir, STAFF_REVEALS_PER_10_MIN: '2' }), { logger: testLogger(), staticRoot });
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticRoot, { recursive: true, force: true });
});

async function signIn(role: 'admin' | 'moderator') {
  const login = (await demoLoginsIn(dataDir))[role];
  const config = (await (await fetch(`${server.url}/api/config`)).json()) as { supabaseAnonKey: string };
  const answer = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: config.supabaseAnonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: login.email, password: login.password }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

it('limits stock reveals per staff member as STAFF_REVEALS_PER_10_MIN says', async () => {
  const [admin, moderator] = await Promise.all([signIn('admin'), signIn('moderator')]);
  const stocks = (await (await fetch(`${server.url}/api/wise-stocks`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { id: string }[];
  expect(stocks.length).toBeGreaterThan(0);
  // The three reveals fall in one 10-minute window of the real clock.
  await insideOneWindow(600_000);
  const reveal = () => fetch(`${server.url}/api/wise-stocks/${stocks[0]!.id}/reveal`, { method: 'POST', headers: { authorization: `Bearer ${moderator}` } });
  expect((await reveal()).status).toBe(200);
  expect((await reveal()).status).toBe(200);
  const refused = await reveal();
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
});
