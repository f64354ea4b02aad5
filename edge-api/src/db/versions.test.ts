import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { nextVersion, syncHorizon } from './versions.ts';

// Decision 189's horizon with many devices pulling at once. A pull waits for an open writer by taking
// that writer's version lock for an instant; the pulls around it must not take that instant for another
// open writer (the soak of decision 248 found every pull queued behind the one before it, answering the
// version below the write, once orders were placed while 1,000 devices pulled).

const PULLERS = 8;
const WRITES = 400;

let test: TestDatabase;

beforeAll(async () => {
  test = await openTestDatabase();
});

afterAll(async () => {
  await test?.close();
});

describe('the sync horizon with pulls overlapping writes', () => {
  it('hands every pull a horizon at or above every version committed before it was asked', async () => {
    // One writer after another, each open for a few milliseconds of work, while eight devices pull in a loop.
    let committed = 0;
    let writing = true;
    const writer = async () => {
      for (let write = 0; write < WRITES; write++) {
        const version = await test.db.transaction().execute(async (trx) => {
          const taken = await nextVersion(trx);
          await sql`select pg_sleep(0.003)`.execute(trx);
          return taken;
        });
        committed = version;
      }
      writing = false;
    };
    const behind: { committedBefore: number; horizon: number }[] = [];
    let pulls = 0;
    const puller = async () => {
      while (writing) {
        const committedBefore = committed;
        const { horizon } = await syncHorizon(test.db);
        pulls += 1;
        if (horizon < committedBefore) behind.push({ committedBefore, horizon });
      }
    };
    await Promise.all([writer(), ...Array.from({ length: PULLERS }, puller)]);

    expect(pulls).toBeGreaterThan(PULLERS);
    // A pull that waited on another pull's instant on a committed writer's lock answered below that write.
    expect(behind).toEqual([]);
  });
});
