import { sql, type Transaction } from 'kysely';
import type { WebhookEvent } from '../contract/partners.ts';
import type { WebhookPayload } from './partner-schema.ts';
import type { Database, OrderRow } from './schema.ts';
import type { Db } from './handle.ts';

const delivered = (row: OrderRow) => row.wise_email !== null || row.delivery_kind !== null;

/** The events a change of `before` into `after` is: paid, delivered, replaced, refunded (several at once too). */
export function orderEvents(before: OrderRow, after: OrderRow): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  if (after.payment_status === 'paid' && before.payment_status !== 'paid') events.push('order.paid');
  if (delivered(after) && !delivered(before)) events.push('order.delivered');
  const replaced = (row: OrderRow) => row.delivery_history.filter((past) => past.kind === 'replaced').length;
  if (replaced(after) > replaced(before)) events.push('order.replaced');
  if (after.payment_status === 'refunded' && before.payment_status !== 'refunded') events.push('order.refunded');
  return events;
}

/** How many deliveries this process has written: a request that wrote none needs no send round (as push). */
let queuedHere = 0;
export const queuedWebhookCount = () => queuedHere;

/**
 * The hook where an order's status changes (operations/deliver.ts, under the order's row lock): one
 * delivery per event for each endpoint of the order's account that takes it, written in the change's
 * transaction, so each exists exactly when the change commits and exactly once (decision 174).
 */
export async function queueOrderEvents(trx: Transaction<Database>, before: OrderRow, after: OrderRow): Promise<void> {
  for (const event of orderEvents(before, after)) {
    const payload: WebhookPayload = {
      type: event,
      timestamp: new Date().toISOString(),
      data: { orderId: after.id, paymentStatus: after.payment_status, orderStatus: after.order_status, version: Number(after.version) },
    };
    const written = await sql`
      insert into webhook_deliveries (id, endpoint_id, event, order_id, payload)
      select gen_random_uuid(), e.id, ${event}, ${after.id}, ${JSON.stringify(payload)}::jsonb
      from webhook_endpoints e
      where e.user_id = ${after.user_id} and e.deleted_at is null and ${event} = any (e.events)`.execute(trx);
    if ((written.numAffectedRows ?? 0n) > 0n) queuedHere += 1;
  }
}

/** A delivery a sender has taken, with where it goes: `attempts` counts this one and identifies the lease. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  payload: WebhookPayload;
  attempts: number;
  created_at: Date;
  url: string;
  secret_enc: string;
  endpoint_deleted: boolean;
}

/** Takes up to `limit` due deliveries for `leaseMs` (the database's clock), skipping those another sender is taking. */
export async function claimDeliveries(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const result = await sql<ClaimedDelivery>`
    with taken as (
      update webhook_deliveries set attempts = attempts + 1, claimed_until = now() + ${leaseMs} * interval '1 millisecond'
      where id in (
        select id from webhook_deliveries
        where state = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until <= now())
        order by next_attempt_at, id limit ${limit} for update skip locked)
      returning id, endpoint_id, payload, attempts, created_at)
    select t.*, e.url, e.secret_enc, e.deleted_at is not null as endpoint_deleted
    from taken t join webhook_endpoints e on e.id = t.endpoint_id`.execute(db);
  return result.rows;
}

/** One post and what came of it, kept for the account to read. */
export function recordAttempt(
  db: Db,
  delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>,
  outcome: { status: number | null; error: string | null; durationMs: number },
) {
  return db
    .insertInto('webhook_attempts')
    .values({
      id: crypto.randomUUID(),
      delivery_id: delivery.id,
      attempt: delivery.attempts,
      status: outcome.status,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    })
    .execute();
}

/** Delivered or given up: the row stays, to be read with its attempts. */
export function finishDelivery(db: Db, delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>, state: 'delivered' | 'failed') {
  return sql`
    update webhook_deliveries set state = ${state}, finished_at = now(), claimed_until = null
    where id = ${delivery.id} and attempts = ${delivery.attempts} and state = 'pending'`.execute(db);
}

/** Put back for `delayMs` from now. */
export function retryDeliveryLater(db: Db, delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>, delayMs: number) {
  return sql`
    update webhook_deliveries set claimed_until = null, next_attempt_at = now() + ${delayMs} * interval '1 millisecond'
    where id = ${delivery.id} and attempts = ${delivery.attempts} and state = 'pending'`.execute(db);
}

/** Every account's live endpoints with the account's email, newest first (an admin's view; a shop has a handful). */
export const listAllEndpoints = (db: Db) =>
  db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .selectAll('e')
    .select('u.email as user_email')
    .where('e.deleted_at', 'is', null)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id')
    .limit(200)
    .execute();

/** The account's live endpoints, oldest first. */
export const listEndpoints = (db: Db, userId: string) =>
  db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null).orderBy('created_at').orderBy('id').execute();

export const findEndpoint = (db: Db, userId: string, id: string) =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();

/** An endpoint's newest deliveries (up to `limit`), each with its attempts. */
export async function listDeliveries(db: Db, endpointId: string, limit = 100) {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            deliveries.map((d) => d.id),
          )
          .orderBy('attempt')
          .execute();
  return deliveries.map((delivery) => ({ delivery, attempts: attempts.filter((attempt) => attempt.delivery_id === delivery.id) }));
}

/** Most live endpoints one account may have: each is a post per event. */
export const ENDPOINTS_MAX = 10;

/**
 * An admin's Resend (decision 225): a finished delivery (delivered or given up) of a live endpoint is due
 * again now, with the same webhook-id; the next attempt is its last unless it succeeds. Undefined when it
 * is pending already, its endpoint is gone, or there is no such delivery.
 */
export async function resendDelivery(db: Db, id: string): Promise<{ id: string; endpoint_id: string } | undefined> {
  const result = await sql<{ id: string; endpoint_id: string }>`
    update webhook_deliveries d set state = 'pending', finished_at = null, claimed_until = null, next_attempt_at = now()
    from webhook_endpoints e
    where d.id = ${id} and d.state <> 'pending' and e.id = d.endpoint_id and e.deleted_at is null
    returning d.id, d.endpoint_id`.execute(db);
  return result.rows[0];
}

/** Deletes the deliveries delivered more than `days` days ago, with their attempts (decision 225); answers how many. */
export async function sweepDeliveredWebhooks(db: Db, days: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries where state = 'delivered' and finished_at < now() - ${days} * interval '1 day'`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
