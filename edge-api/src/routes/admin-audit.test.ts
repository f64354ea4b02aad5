import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../contract/audit.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { errorPaths as paths, orderTestBench, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

describe('GET /api/admin/audit', () => {
  it('answers the trail of one order newest first, to admins only', async () => {
    const id = await orders.placeOrder();
    await api.call('PUT', `/api/admin/orders/${id}`, { user: moderator, json: { orderStatus: 'processing' } });
    await api.call('PUT', `/api/admin/orders/${id}`, { user: admin, json: { orderStatus: 'completed' } });
    const trail = await api.call<AuditEntry[]>('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: admin });
    expect(trail.status).toBe(200);
    expect(trail.body.map((e) => [e.action, e.actorId])).toEqual([
      ['order.update', admin.id],
      ['order.update', moderator.id],
      ['order.create', customer.id],
    ]);
    expect(trail.body.every((e) => e.entity === 'order' && e.entityId === id && typeof e.createdAt === 'string')).toBe(true);

    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: moderator })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`, { user: customer })).status).toBe(403);
    expect((await api.call('GET', `/api/admin/audit?entity=order&entityId=${id}`)).status).toBe(401);
    const bad = await api.call<ErrorBody>('GET', `/api/admin/audit?entity=orders&entityId=${id}`, { user: admin });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('entity');
  });
});
