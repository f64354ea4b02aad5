import type { Transaction } from 'kysely';
import type { Database } from './schema.ts';

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/**
 * Runs `effect` once per (user, key) and stores its answer in the same transaction, so a replayed
 * mutation answers what the first one answered and changes nothing. The key row is inserted before the
 * effect: a concurrent replay waits on it and then reads the stored answer; if this transaction rolls
 * back, the key goes with it and a retry runs the effect afresh. Without a key, the effect just runs.
 * The stored answer must hold no secret.
 */
export async function onceForKey(
  trx: Transaction<Database>,
  userId: string,
  key: string | undefined,
  effect: () => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  if (key === undefined) return { ...(await effect()), replayed: false };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ key, user_id: userId, status: 0, response: 'null' })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) {
    const stored = await trx
      .selectFrom('idempotency_keys')
      .select(['status', 'response'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return { status: stored.status, body: stored.response, replayed: true };
  }
  const answer = await effect();
  await trx
    .updateTable('idempotency_keys')
    .set({ status: answer.status, response: JSON.stringify(answer.body) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
  return { ...answer, replayed: false };
}
