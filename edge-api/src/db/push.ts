import { sql, type Transaction } from 'kysely';
import type { Database, PushPayload } from './schema.ts';
import type { Db } from './handle.ts';

/** What a browser's PushSubscription.toJSON() gives, with the device it was made on. */
export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  deviceId: string;
  deviceLabel: string;
}

/**
 * Devices told per account: past this the oldest subscriptions go. Each one is a post per message, so
 * without a bound one account could pile up endpoints (any path on a push service's host) and make every
 * message about it a flood of requests from the server.
 */
export const PUSH_DEVICES_MAX = 10;

/**
 * One row per endpoint (a browser profile's push channel): subscribing again replaces the keys, and an
 * endpoint that another account subscribed on this browser before becomes this account's. The account
 * keeps its PUSH_DEVICES_MAX newest; subscriptions of one account take turns (its user row is locked).
 */
export async function saveSubscription(trx: Transaction<Database>, userId: string, sub: NewPushSubscription) {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const saved = await trx
    .insertInto('push_subscriptions')
    .values({ user_id: userId, endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, device_id: sub.deviceId, device_label: sub.deviceLabel })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        user_id: userId,
        p256dh: sub.p256dh,
        auth: sub.auth,
        device_id: sub.deviceId,
        device_label: sub.deviceLabel,
        created_at: sql`now()`,
      }),
    )
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  await sql`
    delete from push_subscriptions where user_id = ${userId} and id not in (
      select id from push_subscriptions where user_id = ${userId} order by created_at desc, (id = ${saved.id}) desc, id limit ${PUSH_DEVICES_MAX})`.execute(
    trx,
  );
  return saved;
}

/** Removes one of the user's own subscriptions; answers whether there was one. */
export async function removeOwnSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const result = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes every subscription of the user but `keep` (this device's, or none); answers how many went. */
export async function removeOtherSubscriptions(db: Db, userId: string, keep: string | null): Promise<number> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .$if(keep !== null, (qb) => qb.where('endpoint', '!=', keep!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The push service said the subscription is gone (404/410). */
export function removeSubscription(db: Db, id: string) {
  return db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

const staffRoles = ['admin', 'moderator'] as const;

/**
 * How many messages this process has written: a request during which it did not move told nobody, and
 * needs no send round after it (decision 067).
 */
let queuedHere = 0;
export const queuedPushCount = () => queuedHere;

/**
 * Writes a message in the caller's transaction, so it exists exactly when the change commits; only when
 * someone it is for has a subscription (nothing piles up in a shop where nobody allowed notifications).
 */
export async function queuePush(trx: Transaction<Database>, to: { userId: string } | 'staff', payload: PushPayload): Promise<void> {
  const json = JSON.stringify(payload);
  const written =
    to === 'staff'
      ? await sql`
          insert into push_outbox (user_id, to_staff, payload)
          select null, true, ${json}::jsonb
          where exists (
            select 1 from push_subscriptions s join users u on u.id = s.user_id
            where u.user_role in (${sql.join(staffRoles)}) and u.deleted_at is null)`.execute(trx)
      : await sql`
          insert into push_outbox (user_id, to_staff, payload)
          select ${to.userId}, false, ${json}::jsonb
          where exists (select 1 from push_subscriptions where user_id = ${to.userId})`.execute(trx);
  // A rolled-back write counts too: its round then finds nothing, which is harmless.
  if ((written.numAffectedRows ?? 0n) > 0n) queuedHere += 1;
}

/** A message a sender has taken: `attempts` counts this one, and identifies the lease. */
export interface ClaimedPush {
  id: string;
  user_id: string | null;
  to_staff: boolean;
  payload: PushPayload;
  attempts: number;
  sent_to: string[];
}

/**
 * Takes up to `limit` due messages for `leaseMs` (the database's clock, one for every process and
 * isolate): until the lease ends no other sender takes them, and a sender that stopped mid-send leaves
 * them to the next one after it. A concurrent taker skips the rows being taken here.
 */
export async function claimPushes(db: Db, limit: number, leaseMs: number): Promise<ClaimedPush[]> {
  const result = await sql<ClaimedPush>`
    update push_outbox set attempts = attempts + 1, claimed_until = now() + ${leaseMs} * interval '1 millisecond'
    where id in (
      select id from push_outbox
      where next_attempt_at <= now() and (claimed_until is null or claimed_until <= now())
      order by next_attempt_at, id limit ${limit} for update skip locked)
    returning id, user_id, to_staff, payload, attempts, sent_to`.execute(db);
  return result.rows;
}

/** Deletes the messages written more than `maxAgeMs` ago that no sender holds; answers how many went. */
export async function dropStalePushes(db: Db, maxAgeMs: number): Promise<number> {
  const result = await sql`
    delete from push_outbox
    where created_at < now() - ${maxAgeMs} * interval '1 millisecond' and (claimed_until is null or claimed_until <= now())`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Every subscription has had its final answer: the message goes (unless another sender took it since). */
export function finishPush(db: Db, message: Pick<ClaimedPush, 'id' | 'attempts'>) {
  return db.deleteFrom('push_outbox').where('id', '=', message.id).where('attempts', '=', message.attempts).execute();
}

/** Puts a message back for `delayMs` from now, remembering the subscriptions already done with. */
export function retryPushLater(db: Db, message: Pick<ClaimedPush, 'id' | 'attempts'>, sentTo: string[], delayMs: number) {
  return sql`
    update push_outbox set claimed_until = null, sent_to = ${sentTo}::uuid[], next_attempt_at = now() + ${delayMs} * interval '1 millisecond'
    where id = ${message.id} and attempts = ${message.attempts}`.execute(db);
}

/** The subscriptions a message goes to: its user's devices, or every staff member's. */
export function subscriptionsFor(db: Db, message: { user_id: string | null; to_staff: boolean }) {
  const base = db.selectFrom('push_subscriptions as s').select(['s.id', 's.endpoint', 's.p256dh', 's.auth']);
  return message.to_staff
    ? base.innerJoin('users as u', 'u.id', 's.user_id').where('u.user_role', 'in', staffRoles).where('u.deleted_at', 'is', null).execute()
    : base.where('s.user_id', '=', message.user_id!).execute();
}
