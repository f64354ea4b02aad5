import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiHarness, TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { createService, device, orderOnServer, syncTestBench } from '../test/sync-bench.ts';

const { bench, track } = syncTestBench();
let api: ApiHarness;
let admin: TestUser;
beforeAll(() => {
  ({ api, admin } = bench);
});

describe('pull: the notification centre (decision 062)', () => {
  it("brings staff their notifications with their own read state, keeps them for offline reading, and none to a customer's device", async () => {
    const service = await createService(api, admin, 'Wise notices');
    const customer = await api.createUser('user');
    const moderator = await api.createUser('moderator');
    const order = await orderOnServer(api, customer, service);

    const staff = track(device(api, moderator));
    await staff.engine.syncNow();
    const notice = (await staff.db!.notifications.toArray()).find((n) => n.orderId === order.id);
    expect(notice).toMatchObject({ kind: 'new_order', readAt: null });

    await api.call('POST', '/api/notifications/read', { user: moderator, json: { ids: [notice!.id] } });
    await staff.engine.syncNow();
    expect((await staff.db!.notifications.get(notice!.id))?.readAt).not.toBeNull();

    const customerDevice = track(device(api, customer));
    await customerDevice.engine.syncNow();
    expect(await customerDevice.db!.notifications.count()).toBe(0);
  });
});
