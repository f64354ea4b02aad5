import { Dexie } from 'dexie';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiHarness } from '../../../edge-api/src/testing/api-harness.ts';
import { userDbName } from './local-db.ts';
import { wipeUserData } from './sync-engine.ts';
import { device, syncTestBench } from '../test/sync-bench.ts';

const { bench, track } = syncTestBench();
// Read in the tests, once the bench's beforeAll has run.
let api: ApiHarness;
beforeAll(() => {
  ({ api } = bench);
});

describe('logout', () => {
  it('leaves no user database behind, and a late sync does not bring it back', async () => {
    const customer = await api.createUser('user');
    const { engine, db } = track(device(api, customer));
    await engine.syncNow();
    expect(await db!.users.count()).toBe(1);
    expect(await Dexie.exists(userDbName(customer.id))).toBe(true);

    await wipeUserData(customer.id);
    expect(await Dexie.exists(userDbName(customer.id))).toBe(false);
    await engine.syncNow().catch(() => {});
    expect(await Dexie.exists(userDbName(customer.id))).toBe(false);
  });
});
