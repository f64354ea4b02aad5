import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;

const vps = {
  title: 'Cloud VPS',
  description: 'A fast virtual server',
  category: 'vps',
  features: ['2 vCPU', '', '  4 GB RAM  '],
  popular: true,
  image: 'https://img.example/vps.png',
  price: '25',
  deliveryTime: '1hour',
  paymentMethods: ['binance', ' '],
};

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
});
afterAll(() => api.close());

describe('services', () => {
  it('lets an admin create a service, dropping blank features and payment methods', async () => {
    const created = await api.call<{ id: string; features: string[]; paymentMethods: string[] }>('POST', '/api/services', { user: admin, json: vps });
    expect(created.status).toBe(201);
    expect(created.body.features).toEqual(['2 vCPU', '4 GB RAM']);
    expect(created.body.paymentMethods).toEqual(['binance']);

    const listed = await api.call<{ id: string }[]>('GET', '/api/services');
    expect(listed.status).toBe(200);
    expect(listed.body.map((s) => s.id)).toContain(created.body.id);
  });

  it('answers 401 without a token and 403 for customers and moderators', async () => {
    expect((await api.call('POST', '/api/services', { json: vps })).status).toBe(401);
    expect((await api.call('POST', '/api/services', { user: customer, json: vps })).status).toBe(403);
    expect((await api.call('POST', '/api/services', { user: moderator, json: vps })).status).toBe(403);
  });

  it('rejects a malformed body with 400 naming the field, and stores nothing', async () => {
    const before = await api.call<unknown[]>('GET', '/api/services');
    const bad = await api.call<{ error: { code: string; message: string; details: { path: string }[] } }>('POST', '/api/services', {
      user: admin,
      json: { ...vps, title: '   ' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    expect(bad.body.error.details.map((d) => d.path)).toContain('title');
    const after = await api.call<unknown[]>('GET', '/api/services');
    expect(after.body).toHaveLength(before.body.length);
  });

  it('takes a picture address or no picture, and refuses anything else as the image', async () => {
    for (const image of ['', 'https://img.example/vps.png', '/files/service-images/1b9d.png', '/demo/vps.svg']) {
      expect((await api.call('POST', '/api/services', { user: admin, json: { ...vps, image } })).status, image).toBe(201);
    }
    // An inline data: picture is refused: every order copies it to every device (decision 051).
    for (const image of ['just a picture', 'javascript:alert(1)', '//evil.test/x.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      const bad = await api.call<{ error: { details: { path: string }[] } }>('POST', '/api/services', { user: admin, json: { ...vps, image } });
      expect(bad.status, image).toBe(400);
      expect(bad.body.error.details.map((d) => d.path)).toEqual(['image']);
    }
  });

  it('updates with a version check and answers 409 on a stale version', async () => {
    const created = await api.call<{ id: string; version: number }>('POST', '/api/services', { user: admin, json: vps });
    const updated = await api.call<{ title: string; version: number }>('PUT', `/api/services/${created.body.id}`, {
      user: admin,
      json: { ...vps, title: 'Bigger VPS', version: created.body.version },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.title).toBe('Bigger VPS');
    expect(updated.body.version).toBeGreaterThan(created.body.version);

    const stale = await api.call('PUT', `/api/services/${created.body.id}`, { user: admin, json: { ...vps, version: created.body.version } });
    expect(stale.status).toBe(409);
    const fetched = await api.call<{ title: string }>('GET', `/api/services/${created.body.id}`);
    expect(fetched.body.title).toBe('Bigger VPS');
  });

  it('deletes for admins only; a deleted service is gone from the list and answers 404', async () => {
    const created = await api.call<{ id: string }>('POST', '/api/services', { user: admin, json: vps });
    expect((await api.call('DELETE', `/api/services/${created.body.id}`, { user: moderator })).status).toBe(403);
    expect((await api.call('DELETE', `/api/services/${created.body.id}`, { user: admin })).status).toBe(204);
    expect((await api.call('GET', `/api/services/${created.body.id}`)).status).toBe(404);
    expect((await api.call('GET', '/api/services/not-a-uuid')).status).toBe(400);
  });

  it('answers the list as it is now after every write: through the API, or by another process on the same database', async () => {
    const created = await api.call<{ id: string; version: number }>('POST', '/api/services', { user: admin, json: vps });
    const titleOf = async () => {
      const listed = await api.call<{ id: string; title: string }[]>('GET', '/api/services');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
      return listed.body.find((s) => s.id === created.body.id)?.title;
    };
    expect(await titleOf()).toBe('Cloud VPS');
    expect(await titleOf()).toBe('Cloud VPS');

    const renamed = await api.call('PUT', `/api/services/${created.body.id}`, {
      user: admin,
      json: { ...vps, title: 'Renamed VPS', version: created.body.version },
    });
    expect(renamed.status).toBe(200);
    expect(await titleOf()).toBe('Renamed VPS');

    // Another server process (or isolate) on the same database: a transaction that takes a version, as every write does.
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      await trx.updateTable('services').set({ title: 'Edited elsewhere', version }).where('id', '=', created.body.id).execute();
    });
    expect(await titleOf()).toBe('Edited elsewhere');

    expect((await api.call('DELETE', `/api/services/${created.body.id}`, { user: admin })).status).toBe(204);
    expect(await titleOf()).toBeUndefined();
  });
});
