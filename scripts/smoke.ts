// `npm run smoke -- https://shop.example.com`: what a shop owner runs after a deployment (docs/deploy-workers.md).
// Anonymous checks always; with SMOKE_EMAIL and SMOKE_PASSWORD of an admin, the signed-in ones too: the
// auth server's tokens accepted, the admin role, the order stats and export, and an image upload that
// opens again through its private link (it leaves that one small image in the order-proofs bucket).
// Prints one line per check and exits 1 when any fails.

export {};

const base = process.argv[2]?.replace(/\/+$/, '');
if (!base || !/^https?:\/\//.test(base)) {
  console.error('Usage: npm run smoke -- https://your-shop.example.com   (SMOKE_EMAIL and SMOKE_PASSWORD of an admin for the signed-in checks)');
  process.exit(2);
}

let failures = 0;
async function check(what: string, run: () => Promise<string | void>) {
  try {
    const detail = await run();
    console.log(`ok    ${what}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL  ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
/** Fails with the API's own explanation unless the answer has `status` (200 to 299 when omitted). */
async function expectStatus(response: Response, status?: number, hint = ''): Promise<void> {
  if (status === undefined ? response.ok : response.status === status) return;
  throw new Error(`${response.status}: ${await explain(response)}${hint}`);
}
/** The API's own explanation, when it gives one (a misconfigured deployment answers 503 naming the problem). */
async function explain(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    return body.error?.message ?? text.slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

let config: { supabaseUrl: string; supabaseAnonKey: string } | undefined;
await check('GET /api/config answers where auth lives', async () => {
  const response = await fetch(`${base}/api/config`);
  await expectStatus(response);
  config = (await response.json()) as { supabaseUrl: string; supabaseAnonKey: string };
  expect(config.supabaseAnonKey, 'no anon key');
  return config.supabaseUrl || '(this same server)';
});

await check('the API answers, with the security headers; the public list revalidated by its tag', async () => {
  const response = await fetch(`${base}/api/services`);
  await expectStatus(response);
  const services = (await response.json()) as unknown[];
  expect(response.headers.get('x-content-type-options') === 'nosniff', 'no X-Content-Type-Options: nosniff');
  expect(response.headers.get('cache-control') === 'public, max-age=5, must-revalidate', `Cache-Control is ${response.headers.get('cache-control')}`);
  const etag = response.headers.get('etag');
  expect(etag !== null, 'no ETag on the public list');
  const again = await fetch(`${base}/api/services`, { headers: { 'if-none-match': etag! } });
  expect(again.status === 304, `a request with its ETag answered ${again.status}, not 304`);
  const config = await fetch(`${base}/api/config`);
  expect(config.headers.get('cache-control') === 'no-store', `/api/config's Cache-Control is ${config.headers.get('cache-control')}`);
  return `${services.length} services`;
});

await check('signed-in routes refuse a caller without a token (environment and data keys accepted)', async () => {
  const response = await fetch(`${base}/api/admin/orders`);
  await expectStatus(response, 401);
});

let asset: string | undefined;
await check('the app shell is served and revalidated', async () => {
  const response = await fetch(`${base}/`, { headers: { 'sec-fetch-mode': 'navigate' } });
  expect(response.ok, `${response.status}`);
  expect(response.headers.get('cache-control') === 'no-cache', `Cache-Control is ${response.headers.get('cache-control')}`);
  asset = (await response.text()).match(/\/assets\/[\w.-]+\.js/)?.[0];
  expect(asset, 'no script of the build in index.html');
});

await check('hashed assets are immutable and their source maps are not public', async () => {
  const response = await fetch(`${base}${asset}`);
  expect(response.ok, `${asset}: ${response.status}`);
  expect(response.headers.get('cache-control')?.includes('immutable'), `Cache-Control is ${response.headers.get('cache-control')}`);
  const map = await fetch(`${base}${asset}.map`);
  expect(map.status === 404, `${asset}.map answered ${map.status}`);
});

const authUrl = () => `${new URL(config!.supabaseUrl || base!).href.replace(/\/+$/, '')}/auth/v1`;
await check("the auth server's public keys can be read", async () => {
  expect(config, 'no /api/config');
  const response = await fetch(`${authUrl()}/.well-known/jwks.json`);
  expect(response.ok, `${response.status}`);
  const { keys } = (await response.json()) as { keys: unknown[] };
  return keys.length > 0 ? `${keys.length} signing keys` : 'none published: the project signs with the legacy HS256 secret, so SUPABASE_JWT_SECRET must be set';
});

const email = process.env.SMOKE_EMAIL;
const password = process.env.SMOKE_PASSWORD;
if (email && password && config) {
  let session: { access_token: string; user: { id: string } } | undefined;
  await check(`${email} signs in`, async () => {
    const response = await fetch(`${authUrl()}/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: config!.supabaseAnonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    await expectStatus(response);
    session = (await response.json()) as typeof session;
  });
  const auth = () => ({ authorization: `Bearer ${session!.access_token}` });
  await check('the API accepts the token, and the account is an admin', async () => {
    expect(session, 'not signed in');
    const response = await fetch(`${base}/api/users/${session.user.id}`, { headers: auth() });
    await expectStatus(response, undefined, ' (a 401 means the token was refused: check SUPABASE_URL and the JWT signing keys)');
    const user = (await response.json()) as { userRole: string };
    expect(
      user.userRole === 'admin',
      `the role is ${user.userRole}: make it an admin with npm run admin (embedded auth), or list a confirmed address in ADMIN_EMAILS before it registers, or promote it`,
    );
  });
  await check('order stats and the CSV export answer', async () => {
    expect(session, 'not signed in');
    const stats = await fetch(`${base}/api/admin/orders/stats`, { headers: auth() });
    await expectStatus(stats);
    const csv = await fetch(`${base}/api/admin/orders/export.csv`, { headers: auth() });
    expect(csv.ok, `export: ${csv.status}`);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines[0]?.startsWith('id,orderDate'), 'the export has no header line');
    return `${lines.length - 1} orders exported`;
  });
  await check('an image uploads to Storage and opens through its private link', async () => {
    expect(session, 'not signed in');
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (ch) =>
      ch.charCodeAt(0),
    );
    const form = new FormData();
    form.append('kind', 'proof');
    form.append('file', new File([png], 'smoke.png', { type: 'image/png' }));
    const uploaded = await fetch(`${base}/api/uploads`, { method: 'POST', headers: auth(), body: form });
    await expectStatus(uploaded, 201);
    const { url, path } = (await uploaded.json()) as { url: string; path: string };
    const opened = await fetch(new URL(url, base));
    expect(opened.ok && opened.headers.get('content-type') === 'image/png', `the link answered ${opened.status}`);
    return path;
  });
} else {
  console.log('skip  signed-in checks: set SMOKE_EMAIL and SMOKE_PASSWORD of an admin to run them');
}

console.log(failures ? `\n${failures} check(s) failed.` : '\nAll checks passed.');
process.exit(failures ? 1 : 0);
