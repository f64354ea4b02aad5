import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** The key was first used with another request: the caller answers 422 idempotency_mismatch. */
export class KeyReusedError extends Error {
  constructor() {
    super('idempotency key reused with a different request');
  }
}

/** Whether (user, key) was already claimed: a replay, which answers what the first one did. */
export async function keyClaimed(db: Kysely<Database>, userId: string, key: string): Promise<boolean> {
  const row = await db.selectFrom('idempotency_keys').select('key').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/** A mutation's answer as kept under its key: typed by the effect that made it, so a replay answers the same type. */
export interface StoredAnswer<Body = unknown, Status extends number = number> {
  status: Status;
  body: Body;
}

/**
 * Runs `effect` once per (user, key) and stores its answer in the same transaction, so a replayed
 * mutation answers what the first one answered and changes nothing. The key row is inserted before the
 * effect: a concurrent replay waits on it and then reads the stored answer; if this transaction rolls
 * back, the key goes with it and a retry runs the effect afresh. Without a key, the effect just runs.
 * The stored answer must hold no secret.
 *
 * `requestHash` (a keyed hash of the request, never the request itself) is kept with the key: the same
 * key sent with another request throws KeyReusedError (422 idempotency_mismatch) and changes nothing, as Stripe does.
 */
export async function onceForKey<Body, Status extends number>(
  trx: Transaction<Database>,
  userId: string,
  key: string | undefined,
  effect: () => Promise<StoredAnswer<Body, Status>>,
  requestHash?: string,
): Promise<StoredAnswer<Body, Status> & { replayed: boolean }> {
  if (key === undefined) return { ...(await effect()), replayed: false };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ key, user_id: userId, status: 0, response: 'null', request_hash: requestHash ?? null })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) {
    const stored = await trx
      .selectFrom('idempotency_keys')
      .select(['status', 'response', 'request_hash'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (stored.request_hash !== null && requestHash !== undefined && stored.request_hash !== requestHash) {
      throw new KeyReusedError();
    }
    // The one place the wire's type is taken on trust: this row was written below, by this effect, under
    // this (user, key) and request hash, from a StoredAnswer<Body, Status>; JSON keeps the shape.
    return { status: stored.status as Status, body: stored.response as Body, replayed: true };
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
