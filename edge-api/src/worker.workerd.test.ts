import { readdirSync } from 'node:fs';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from './lib/secrets.ts';
import { createApiHarness, remoteApi, type ApiHarness } from './testing/api-harness.ts';
import { REVALIDATE } from './lib/http-headers.ts';
import { expectEntryHeaders } from './testing/entry-headers.ts';
import { expectOperatorSignals } from './testing/operator-signals.ts';
import { startWorker, type RunningWorker } from './testing/workerd.ts';

// What only a running worker under workerd can show. Run by `npm run test:workers`, which starts the
// worker this suite's TEST_API_URL names; the tests below start more workers of their own, configured
// wrong on purpose, on the same database and the same auth stand-in.
if (!remoteApi) throw new Error('worker.workerd.test.ts runs against a worker under workerd: npm run test:workers');
const target = remoteApi;
const hyperdriveUrl = process.env.TEST_API_HYPERDRIVE_URL!;

/** The variables of the suite's worker, before a test breaks one of them. */
const goodVars = () => ({
  SUPABASE_URL: target.supabaseUrl,
  SUPABASE_ANON_KEY: target.anonKey,
  SUPABASE_SERVICE_ROLE_KEY: target.serviceRoleKey,
  CREDENTIALS_KEY: target.credentialsKey,
  BLIND_INDEX_KEY: target.blindIndexKey,
});

const lines = (output: string, text: string) => output.split('\n').filter((line) => line.includes(text));

/** The worker's log reaches its output a moment after the answer: wait for `text`, then count it. */
async function logged(running: RunningWorker, text: string): Promise<string[]> {
  for (let waited = 0; waited < 5000 && lines(running.output(), text).length === 0; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return lines(running.output(), text);
}

let api: ApiHarness;
const started: RunningWorker[] = [];
const worker = async (vars: Record<string, string>) => {
  const running = await startWorker({ hyperdriveUrl, vars });
  started.push(running);
  return running;
};

beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(async () => {
  await Promise.all(started.map((running) => running.stop()));
  await api?.close();
});

describe('the worker under workerd', () => {
  it('answers /healthz and /readyz, and an X-Request-Id on every answer, as the Node entry does (issue 28)', async () => {
    await expectOperatorSignals(target.url);
  });

  it('answers with the same security and caching headers as the Node entry, and serves no source map', async () => {
    const assets = readdirSync('dist/assets');
    const hashedAsset = assets.find((name) => name.endsWith('.js'))!;
    const sourceMap = assets.find((name) => name.endsWith('.js.map'))!;
    expect(sourceMap, 'the build keeps its maps locally').toBeDefined();
    await expectEntryHeaders(target.url, { hashedAsset: `/assets/${hashedAsset}`, sourceMap: `/assets/${sourceMap}` });
  });

  it('serves a hashed asset and answers one that is not there 404, a navigation included, never the app shell (decision 150)', async () => {
    const hashedAsset = readdirSync('dist/assets').find((name) => name.endsWith('.js'))!;
    const found = await fetch(`${target.url}/assets/${hashedAsset}`);
    expect(found.status).toBe(200);
    expect(found.headers.get('content-type')).toMatch(/javascript/);
    const requests: Record<string, string>[] = [{}, { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' }, { 'sec-fetch-mode': 'navigate' }];
    for (const headers of requests) {
      const missing = await fetch(`${target.url}/assets/app-does-not-exist.js`, { headers });
      expect(missing.status, JSON.stringify(headers)).toBe(404);
      expect(missing.headers.get('cache-control') ?? '').not.toContain('immutable');
      expect(await missing.text()).not.toMatch(/<!doctype html>/i);
    }
  });

  it('renders the public pages from the database, as the Node entry does, and leaves the client routes to the app shell', async () => {
    const admin = await api.createUser('admin');
    const title = `Rendered VPS ${crypto.randomUUID().slice(0, 8)}`;
    const created = await api.call('POST', '/api/services', {
      user: admin,
      json: {
        title,
        description: 'Rendered by the worker',
        category: 'vps',
        features: ['2 vCPU'],
        popular: false,
        image: 'https://img.example/vps.png',
        price: '25',
        deliveryTime: '1hour',
        paymentMethods: ['binance'],
      },
    });
    expect(created.status).toBe(201);
    const page = await fetch(`${target.url}/services`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe(REVALIDATE);
    const html = await page.text();
    expect(html).toContain('Explore Premium Services');
    expect(html).toContain(title);
    expect(html).toContain('id="public-snapshot"');
    expect(html).not.toContain('Loading Services');
    const proxy = await fetch(`${target.url}/Proxy`);
    expect(await proxy.text()).toContain('Premium Proxy IP Access');
    // A client route is the empty app shell, rendered by the app on the device.
    // No file has these names: the platform hands them to the worker, which answers the shell (decision 151).
    for (const route of ['/my-orders', '/dashboard/all-wise-stocks']) {
      const answer = await fetch(`${target.url}${route}`, { headers: { 'sec-fetch-mode': 'navigate' } });
      expect(answer.status, route).toBe(200);
      expect(answer.headers.get('cache-control') ?? '', route).not.toContain('immutable');
      const shell = await answer.text();
      expect(shell).toContain('<div id="root"></div>');
      expect(shell).not.toContain('id="public-snapshot"');
    }
  });

  it('answers a clear 503 naming what is misconfigured, logs it once per isolate, and still serves the app', async () => {
    const { CREDENTIALS_KEY: _dropped, ...vars } = goodVars();
    const broken = await worker({ ...vars, SUPABASE_URL: 'https://your-project.supabase.co', BLIND_INDEX_KEY: 'short' });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${broken.url}/api/services`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: { code: string; message: string; details: { path: string; message: string }[] } };
      expect(body.error.code).toBe('misconfigured');
      expect(body.error.details.map((d) => d.path).sort()).toEqual(['BLIND_INDEX_KEY', 'CREDENTIALS_KEY', 'SUPABASE_URL']);
      expect(body.error.message).toMatch(/CREDENTIALS_KEY is required/);
      expect(body.error.message).toMatch(/SUPABASE_URL is still the placeholder/);
      expect(body.error.message).not.toContain(target.serviceRoleKey);
    }
    const page = await fetch(`${broken.url}/`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<!doctype html>/i);
    expect(await logged(broken, 'the environment is not valid')).toHaveLength(1);
  });

  it('refuses to serve with a data key that does not match the stored data, naming the key', async () => {
    const other = generateKey();
    const wrongKey = await worker({ ...goodVars(), CREDENTIALS_KEY: other });
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${wrongKey.url}/api/services`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('misconfigured');
      expect(body.error.message).toMatch(/^CREDENTIALS_KEY is not the key this database's data was made with/);
      expect(body.error.message).not.toMatch(/BLIND_INDEX_KEY/);
      expect(body.error.message).not.toContain(other);
    }
    expect(await logged(wrongKey, 'the data keys do not match')).toHaveLength(1);
    // Its public pages are still the app shell, which renders from the device.
    const page = await fetch(`${wrongKey.url}/services`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
  });

  it('takes HS256 tokens signed with SUPABASE_JWT_SECRET beside the JWKS ones, builds its app once, and logs why it refuses a token', async () => {
    // The project's legacy secret, which its auth server (the stand-in) also verifies its HS256 tokens with:
    // the worker asks the auth server whether a token's session still exists.
    const secret = target.jwtSecret!;
    expect(secret).toBeTruthy();
    const hs256 = await worker({ ...goodVars(), SUPABASE_JWT_SECRET: secret });
    const legacyUser = await api.createUser('user', 'legacy');
    const { id, email } = legacyUser;
    const sessionId = decodeJwt(legacyUser.token).session_id as string;
    const sign = (key: string, issuer: string) =>
      new SignJWT({ email, role: 'authenticated', session_id: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(id)
        .setAudience('authenticated')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(key));
    const asUser = (token: string) => fetch(`${hs256.url}/api/users/${id}`, { headers: { authorization: `Bearer ${token}` } });

    const legacy = await asUser(await sign(secret, target.authUrl));
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as { email: string }).email).toBe(email);
    // The project's new ES256 keys still work beside it.
    const modern = await api.createUser('user');
    expect((await fetch(`${hs256.url}/api/users/${modern.id}`, { headers: { authorization: `Bearer ${modern.token}` } })).status).toBe(200);

    const forged = await sign(`not-the-secret-${crypto.randomUUID()}`, target.authUrl);
    expect((await asUser(forged)).status).toBe(401);
    const elsewhere = await sign(secret, 'https://another-project.supabase.co/auth/v1');
    expect((await asUser(elsewhere)).status).toBe(401);
    expect(await logged(hs256, 'the token signature does not match SUPABASE_JWT_SECRET')).toHaveLength(1);
    const issuerLine = await logged(hs256, "the token's issuer is not");
    expect(issuerLine).toHaveLength(1);
    const output = hs256.output();
    expect(issuerLine[0]).toContain(target.authUrl);
    expect(issuerLine[0]).toContain('https://another-project.supabase.co/auth/v1');
    for (const token of [forged, elsewhere, modern.token]) expect(output).not.toContain(token);
    // Seven API calls, one app.
    expect(lines(output, 'worker: isolate ready')).toHaveLength(1);
  });
});
