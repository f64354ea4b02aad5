import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WiseStock } from '../contract/wise-stocks.ts';
import { createSecrets } from '../lib/secrets.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function uploadStockImage(): Promise<string> {
  const form = new FormData();
  form.append('kind', 'stock');
  form.append('file', new File([pngBytes], 'auth.png', { type: 'image/png' }));
  const uploaded = await api.call<{ path: string }>('POST', '/api/uploads', { user: admin, body: form });
  expect(uploaded.status).toBe(201);
  return uploaded.body.path;
}

// Every stock made here has credentials of its own unless a test says otherwise: duplicates are refused.
let made = 0;
const newStock = (overrides: Record<string, unknown> = {}) => ({
  wiseName: 'Rahim Uddin',
  wiseEmail: `rahim.wise.${++made}@example.test`,
  wisePassword: `S3cret-Wise!pass-${made}`,
  authImage: 'https://img.example/auth.jpg',
  docImg1: '',
  docImg2: '',
  userName: 'Stock Keeper',
  serviceName: 'WiseStock',
  status: 'available',
  ...overrides,
});

async function createStock(overrides: Record<string, unknown> = {}) {
  const created = await api.call<WiseStock>('POST', '/api/wise-stocks', { user: admin, json: newStock(overrides) });
  expect(created.status).toBe(201);
  return created.body;
}

const countStocks = async () =>
  (
    await api.db
      .selectFrom('wise_stocks')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
});
afterAll(() => api.close());

describe('creating a Wise stock', () => {
  it('stores an available WiseStock added by the caller, whatever the body claims, and answers the password', async () => {
    const authImage = await uploadStockImage();
    const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: newStock({
        wiseEmail: 'rahim.wise@example.test',
        wisePassword: 'S3cret-Wise!pass',
        authImage,
        docImg1: 'https://img.example/doc1.png',
        status: 'sold',
        serviceName: 'Other',
        soldTo: customer.id,
      }),
    });
    expect(created.status).toBe(201);
    const stock = created.body;
    expect(stock).toMatchObject({
      wiseName: 'Rahim Uddin',
      wiseEmail: 'rahim.wise@example.test',
      wisePassword: 'S3cret-Wise!pass',
      docImg1: 'https://img.example/doc1.png',
      docImg2: '',
      userName: 'Stock Keeper',
      userEmail: admin.email,
      serviceName: 'WiseStock',
      status: 'available',
      soldTo: null,
      orderId: null,
      notes: '',
    });
    // The private stock image comes back as a signed URL the browser can load.
    expect(stock.authImage).toMatch(new RegExp(`^/files/${authImage}\\?expires=\\d+&sig=`));

    const row = await api.db.selectFrom('wise_stocks').selectAll().where('id', '=', stock.id).executeTakeFirstOrThrow();
    expect(row.added_by).toBe(admin.id);
    expect(row.auth_image).toBe(authImage);

    const fetched = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: admin });
    expect(fetched.status).toBe(200);
    expect(fetched.body.wisePassword).toBe('S3cret-Wise!pass');
  });

  it('masks the password for a moderator, in the list and alone, and reveals it on request with an audit entry', async () => {
    const stock = await createStock({ wisePassword: 'Masked-Pass-1' });
    const alone = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: moderator });
    expect(alone.body).toMatchObject({ wisePassword: '', wisePasswordMasked: true });
    const list = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: moderator });
    expect(JSON.stringify(list.body)).not.toContain('Masked-Pass-1');
    expect(list.body.every((s) => s.wisePassword === '' && s.wisePasswordMasked)).toBe(true);

    const revealed = await api.call<{ wisePassword: string }>('POST', `/api/wise-stocks/${stock.id}/reveal`, { user: moderator });
    expect(revealed.status).toBe(200);
    expect(revealed.body.wisePassword).toBe('Masked-Pass-1');
    const audit = await api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', stock.id).where('action', '=', 'wise_stock.reveal').execute();
    expect(audit.map((row) => row.actor_id)).toEqual([moderator.id]);
    expect(JSON.stringify(audit)).not.toContain('Masked-Pass-1');
    expect((await api.call('POST', `/api/wise-stocks/${stock.id}/reveal`, { user: customer })).status).toBe(403);
    expect((await api.call('POST', `/api/wise-stocks/${crypto.randomUUID()}/reveal`, { user: moderator })).status).toBe(404);
  });

  it('rejects missing required fields with 400 naming each of them, and stores nothing', async () => {
    const before = await countStocks();
    const bad = await api.call<ErrorBody>('POST', '/api/wise-stocks', {
      user: admin,
      json: { wiseName: '  ', wiseEmail: 'x@example.test', docImg1: '' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    expect(bad.body.error.details!.map((d) => d.path).sort()).toEqual(['authImage', 'userName', 'wiseName', 'wisePassword']);
    expect(await countStocks()).toBe(before);
  });

  it('rejects a malformed email or an image that is neither an uploaded stock image nor an http(s) URL', async () => {
    const before = await countStocks();
    for (const [fieldName, overrides] of [
      ['wiseEmail', { wiseEmail: 'not-an-email' }],
      ['authImage', { authImage: 'javascript:alert(1)' }],
      ['authImage', { authImage: 'order-proofs/3b5a1f7e.png' }],
      ['docImg2', { docImg2: 'stock-images/../../secrets' }],
    ] as const) {
      const bad = await api.call<ErrorBody>('POST', '/api/wise-stocks', { user: admin, json: newStock(overrides) });
      expect(bad.status, fieldName).toBe(400);
      expect(bad.body.error.details!.map((d) => d.path)).toEqual([fieldName]);
    }
    expect(await countStocks()).toBe(before);
  });

  it('answers a replayed create (same client id) with the first stock, never a second one', async () => {
    const id = crypto.randomUUID();
    const first = await api.call<WiseStock>('POST', '/api/wise-stocks', { user: admin, json: newStock({ id }) });
    expect(first.status).toBe(201);
    const replay = await api.call<WiseStock>('POST', '/api/wise-stocks', { user: admin, json: newStock({ id, wiseName: 'Changed' }) });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ id, wiseName: 'Rahim Uddin', version: first.body.version });
    const rows = await api.db.selectFrom('wise_stocks').select('id').where('id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps passwords out of the database and the audit log in plain text', async () => {
    const password = 'Plain-Text-Never-Stored-42';
    const stock = await createStock({ wisePassword: password });
    await api.call('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { status: 'used' } });
    const dump = JSON.stringify(await api.db.selectFrom('wise_stocks').selectAll().execute());
    const audit = JSON.stringify(await api.db.selectFrom('audit_log').selectAll().execute());
    expect(dump).toContain(stock.id);
    expect(dump).not.toContain(password);
    expect(audit).toContain(stock.id);
    expect(audit).not.toContain(password);
    const row = await api.db.selectFrom('wise_stocks').selectAll().where('id', '=', stock.id).executeTakeFirstOrThrow();
    expect(row.wise_password_index).toBe(await api.deps.secrets.blindIndex(password));
  });
});

describe('listing stocks', () => {
  it('links every private image with a URL that stays the same from one load to the next, and that opens the image', async () => {
    const images = await Promise.all([uploadStockImage(), uploadStockImage(), uploadStockImage()]);
    const ids: string[] = [];
    for (const authImage of images) ids.push((await api.call<WiseStock>('POST', '/api/wise-stocks', { user: admin, json: newStock({ authImage }) })).body.id);
    const load = async () => {
      const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: moderator });
      expect(listed.status).toBe(200);
      return ids.map((id) => listed.body.find((stock) => stock.id === id)!.authImage);
    };
    const first = await load();
    expect(await load()).toEqual(first);
    for (const [i, url] of first.entries()) {
      expect(url).toMatch(new RegExp(`^/files/${images[i]}\\?expires=\\d+&sig=`));
      const opened = await api.app.request(url);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/png');
    }
  });

  it('lists every stock when one password cannot be read, marking that one', async () => {
    const readable = (
      await api.call<WiseStock>('POST', '/api/wise-stocks', {
        user: admin,
        json: newStock({ wisePassword: 'Readable#Wise-1', authImage: await uploadStockImage() }),
      })
    ).body;
    const damaged = (await api.call<WiseStock>('POST', '/api/wise-stocks', { user: admin, json: newStock({ authImage: await uploadStockImage() }) })).body;
    const stranger = await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32)));
    await api.db
      .updateTable('wise_stocks')
      .set({ wise_password_enc: await stranger.encrypt('Lost#1') })
      .where('id', '=', damaged.id)
      .execute();

    const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.find((stock) => stock.id === readable.id)).toMatchObject({ wisePassword: 'Readable#Wise-1' });
    expect(listed.body.find((stock) => stock.id === damaged.id)).toMatchObject({ wisePassword: '', wisePasswordUnreadable: true });
    const one = await api.call<WiseStock>('GET', `/api/wise-stocks/${damaged.id}`, { user: admin });
    expect(one.status).toBe(200);
    expect(one.body.wisePasswordUnreadable).toBe(true);
  });
});

describe('who may do what with stocks', () => {
  it('answers 401 without a token, 403 for customers, read-only for moderators, everything for admins', async () => {
    const stock = await createStock({ wisePassword: 'Admins#Read-It' });
    const calls = [
      { method: 'GET', path: '/api/wise-stocks', moderator: 200 },
      { method: 'GET', path: `/api/wise-stocks/${stock.id}`, moderator: 200 },
      { method: 'POST', path: '/api/wise-stocks', json: newStock(), moderator: 403 },
      { method: 'PUT', path: `/api/wise-stocks/${stock.id}`, json: { status: 'active' }, moderator: 403 },
      { method: 'DELETE', path: `/api/wise-stocks/${stock.id}`, moderator: 403 },
    ];
    for (const call of calls) {
      const label = `${call.method} ${call.path}`;
      expect((await api.call(call.method, call.path, { json: call.json })).status, label).toBe(401);
      expect((await api.call(call.method, call.path, { user: customer, json: call.json })).status, label).toBe(403);
      expect((await api.call(call.method, call.path, { user: moderator, json: call.json })).status, label).toBe(call.moderator);
    }
    // Nothing the refused callers sent took effect.
    const unchanged = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: admin });
    expect(unchanged.body).toMatchObject({ status: 'available', version: stock.version });

    const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.find((s) => s.id === stock.id)?.wisePassword).toBe('Admins#Read-It');
    expect((await api.call('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { status: 'active' } })).status).toBe(200);
    expect((await api.call('DELETE', `/api/wise-stocks/${stock.id}`, { user: admin })).status).toBe(204);
  });
});

describe('changing a stock', () => {
  it('requires a user when marking as sold, and changes nothing without one', async () => {
    const stock = await createStock();
    const bad = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { status: 'sold', notes: 'sold by chat' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Please select a user when marking as sold');
    expect(bad.body.error.details!.map((d) => d.path)).toEqual(['soldTo']);

    const unknownUser = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { status: 'sold', soldTo: crypto.randomUUID() },
    });
    expect(unknownUser.status).toBe(400);
    expect(unknownUser.body.error.details!.map((d) => d.path)).toEqual(['soldTo']);

    const noStatus = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { notes: 'hello' } });
    expect(noStatus.status).toBe(400);
    expect(noStatus.body.error.message).toBe('Please select a status');

    const unknownStatus = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { status: 'lost' } });
    expect(unknownStatus.status).toBe(400);
    expect(unknownStatus.body.error.details!.map((d) => d.path)).toEqual(['status']);

    const after = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: admin });
    expect(after.body).toMatchObject({ status: 'available', soldTo: null, notes: '', version: stock.version });
  });

  it('records the buyer when sold and clears it for any other status; notes change only when given', async () => {
    const stock = await createStock();
    const sold = await api.call<{ stock: WiseStock }>('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { status: 'sold', soldTo: customer.id, notes: '  paid by bKash  ', updatedAt: new Date().toISOString() },
    });
    expect(sold.status).toBe(200);
    expect(sold.body.stock).toMatchObject({ status: 'sold', soldTo: customer.id, notes: 'paid by bKash' });
    expect(sold.body.stock.version).toBeGreaterThan(stock.version);

    const active = await api.call<{ stock: WiseStock }>('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { status: 'active', soldTo: customer.id, notes: '   ' },
    });
    expect(active.status).toBe(200);
    expect(active.body.stock).toMatchObject({ status: 'active', soldTo: null, orderId: null, notes: 'paid by bKash' });

    const audit = await api.db.selectFrom('audit_log').select(['action', 'actor_id']).where('entity_id', '=', stock.id).orderBy('created_at').execute();
    expect(audit.map((entry) => entry.action)).toEqual(['wise_stock.create', 'wise_stock.status', 'wise_stock.status']);
    expect(audit.every((entry) => entry.actor_id === admin.id)).toBe(true);
  });

  it('lets any status move to any other', async () => {
    const stock = await createStock();
    const statuses = ['available', 'sold', 'active', 'suspended', 'disabled', 'used'] as const;
    const setStatus = (status: (typeof statuses)[number]) =>
      api.call<{ stock: WiseStock }>('PUT', `/api/wise-stocks/${stock.id}`, {
        user: admin,
        json: status === 'sold' ? { status, soldTo: customer.id } : { status },
      });
    for (const from of statuses) {
      for (const to of statuses) {
        if (from === to) continue;
        expect((await setStatus(from)).status).toBe(200);
        const changed = await setStatus(to);
        expect(changed.status, `${from} -> ${to}`).toBe(200);
        expect(changed.body.stock.status).toBe(to);
        expect(changed.body.stock.soldTo).toBe(to === 'sold' ? customer.id : null);
      }
    }
  });

  it('replaces one image at a time and answers the stock with a URL for it', async () => {
    const stock = await createStock();
    const path = await uploadStockImage();
    const updated = await api.call<{ stock: WiseStock }>('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { docImg1: path, updatedAt: new Date().toISOString() },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.stock.docImg1).toMatch(new RegExp(`^/files/${path}\\?expires=`));
    expect(updated.body.stock.authImage).toBe('https://img.example/auth.jpg');
    expect(updated.body.stock.status).toBe('available');

    const both = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { docImg2: path, status: 'used' } });
    expect(both.status).toBe(400);
    const removeAuth = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { authImage: '' } });
    expect(removeAuth.status).toBe(400);
    expect(removeAuth.body.error.details!.map((d) => d.path)).toEqual(['authImage']);
    const badImage = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { docImg2: 'ftp://files.example/x.png' } });
    expect(badImage.status).toBe(400);

    const after = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: admin });
    expect(after.body).toMatchObject({ status: 'available', authImage: 'https://img.example/auth.jpg', docImg2: '', version: updated.body.stock.version });
  });

  it('answers 409 to a stale version and keeps the newer change', async () => {
    const stock = await createStock();
    const first = await api.call<{ stock: WiseStock }>('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { status: 'suspended', version: stock.version },
    });
    expect(first.status).toBe(200);
    const stale = await api.call<ErrorBody>('PUT', `/api/wise-stocks/${stock.id}`, { user: admin, json: { status: 'disabled', version: stock.version } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    const staleImage = await api.call('PUT', `/api/wise-stocks/${stock.id}`, {
      user: admin,
      json: { docImg1: 'https://img.example/x.png', version: stock.version },
    });
    expect(staleImage.status).toBe(409);
    const after = await api.call<WiseStock>('GET', `/api/wise-stocks/${stock.id}`, { user: admin });
    expect(after.body).toMatchObject({ status: 'suspended', docImg1: '', version: first.body.stock.version });
  });

  it('answers 404 for unknown stocks and 400 for ids that are not UUIDs', async () => {
    const unknown = crypto.randomUUID();
    expect((await api.call('GET', `/api/wise-stocks/${unknown}`, { user: admin })).status).toBe(404);
    expect((await api.call('PUT', `/api/wise-stocks/${unknown}`, { user: admin, json: { status: 'used' } })).status).toBe(404);
    expect((await api.call('DELETE', `/api/wise-stocks/${unknown}`, { user: admin })).status).toBe(404);
    expect((await api.call('GET', '/api/wise-stocks/not-a-uuid', { user: admin })).status).toBe(400);
  });
});

describe('deleting a stock', () => {
  it('removes it from the list and the detail (soft delete, a tombstone for sync)', async () => {
    const stock = await createStock();
    expect((await api.call('DELETE', `/api/wise-stocks/${stock.id}`, { user: admin })).status).toBe(204);
    expect((await api.call('GET', `/api/wise-stocks/${stock.id}`, { user: admin })).status).toBe(404);
    const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: admin });
    expect(listed.body.map((s) => s.id)).not.toContain(stock.id);
    const row = await api.db.selectFrom('wise_stocks').select(['deleted_at', 'version']).where('id', '=', stock.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(Number(row.version)).toBeGreaterThan(stock.version);
    expect((await api.call('DELETE', `/api/wise-stocks/${stock.id}`, { user: admin })).status).toBe(404);
  });
});
