import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextVersion } from '../db/versions.ts';
import { inProcessHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { CALLER_MEMO_MS } from './caller-memo.ts';

// In this process, whatever TEST_API_URL says: these tests are about what this process remembers.
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = await inProcessHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());
afterEach(() => vi.useRealTimers());

const staffList = (user: TestUser) => api.call('GET', '/api/admin/orders', { user }).then((answer) => answer.status);
const setRole = (user: TestUser, role: 'user' | 'moderator' | 'admin') =>
  api.db.updateTable('users').set({ user_role: role }).where('id', '=', user.id).execute();

describe('the caller record memo (decision 071)', () => {
  it('takes a demotion or a deletion through the API into account on the very next request', async () => {
    // A clock that stands still: only writes can make the memo forget here.
    vi.useFakeTimers({ toFake: ['Date'] });
    const demoted = await api.createUser('moderator');
    const deleted = await api.createUser('moderator');
    expect(await staffList(demoted)).toBe(200);
    expect(await staffList(deleted)).toBe(200);
    const version = (await api.db.selectFrom('users').select('version').where('id', '=', demoted.id).executeTakeFirstOrThrow()).version;
    expect((await api.call('PUT', `/api/users/${demoted.id}/role`, { user: admin, json: { userRole: 'user', version } })).status).toBe(200);
    expect(await staffList(demoted)).toBe(403);
    expect((await api.call('DELETE', `/api/users/${deleted.id}`, { user: admin })).status).toBe(204);
    expect(await staffList(deleted)).toBe(403);
  });

  it('forgets every record when a transaction of this process takes a version, whatever it writes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const moderator = await api.createUser('moderator');
    expect(await staffList(moderator)).toBe(200);
    await api.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ user_role: 'user', version: await nextVersion(trx) })
        .where('id', '=', moderator.id)
        .execute();
    });
    expect(await staffList(moderator)).toBe(403);
  });

  it(`uses a record another process changed for at most ${CALLER_MEMO_MS} ms`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const moderator = await api.createUser('moderator');
    expect(await staffList(moderator)).toBe(200);
    // Written outside this process's writes (as `npm run admin` or a second server would): nothing here notices.
    await setRole(moderator, 'user');
    expect(await staffList(moderator)).toBe(200);
    vi.setSystemTime(Date.now() + CALLER_MEMO_MS);
    expect(await staffList(moderator)).toBe(403);
    // A promotion from outside arrives the same way; a missing record is never remembered.
    await setRole(moderator, 'admin');
    vi.setSystemTime(Date.now() + CALLER_MEMO_MS);
    expect(await staffList(moderator)).toBe(200);
  });

  it('never remembers that a caller has no record: a registration counts at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const account = await api.createAccount();
    expect((await api.call('GET', '/api/admin/orders', { user: account.token })).status).toBe(403);
    await api.db
      .insertInto('users')
      .values({ id: account.id, email: account.email, display_name: 'Late', mobile: '01700000000', user_role: 'moderator', version: 0 })
      .execute();
    expect((await api.call('GET', '/api/admin/orders', { user: account.token })).status).toBe(200);
  });
});
