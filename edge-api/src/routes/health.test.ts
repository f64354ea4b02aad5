import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import { freePort } from '../testing/free-port.ts';
import { healthRoutes } from './health.ts';

// The answers of a database that is not there; the ready one is checked through both entries
// (node-server.test.ts, worker.workerd.test.ts) with testing/operator-signals.ts.
const nowhere = openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/none`, timeouts: { connectMs: 1_000, statementMs: 1_000 } });
afterAll(() => nowhere.destroy());

describe('/readyz', () => {
  it('answers 503 with Retry-After while the database does not answer, and /healthz still answers', async () => {
    const app = healthRoutes({ db: nowhere });
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'the database does not answer' });
    expect((await app.request('/healthz')).status).toBe(200);
  });
});
