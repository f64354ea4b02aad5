import type { Transaction, Updateable } from 'kysely';
import type { OrderBeforeChange, OrderChangeFields } from '../contract/order-changes.ts';
import type { Order, ReportReason } from '../contract/orders.ts';
import { cursorAt, pastCursor, type OrderCursor } from './order-cursor.ts';
import type { Database, OrderRow, OrdersTable } from './schema.ts';
import { writeTime } from './versions.ts';
import type { Db } from './handle.ts';

/** A new order: the service's details as the customer saw them, who placed it, and when. */
export type NewOrderFields = Pick<
  Order,
  'id' | 'productId' | 'title' | 'description' | 'category' | 'image' | 'price' | 'deliveryTime' | 'userId' | 'userEmail' | 'userName'
> & { orderDate: Date; note?: string; paymentMethod?: string | null };

/** Inserts a pending order; undefined when the id is taken (a replayed placement). */
export function insertOrder(db: Db, fields: NewOrderFields, version: number) {
  return db
    .insertInto('orders')
    .values({
      id: fields.id,
      product_id: fields.productId,
      title: fields.title,
      description: fields.description,
      category: fields.category,
      image: fields.image,
      price: fields.price,
      delivery_time: fields.deliveryTime,
      user_id: fields.userId,
      user_email: fields.userEmail,
      user_name: fields.userName,
      note: fields.note ?? '',
      payment_method: fields.paymentMethod ?? null,
      payment_status: 'pending',
      order_status: 'pending',
      order_date: fields.orderDate,
      created_at: fields.orderDate,
      updated_at: fields.orderDate,
      version,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findOrder(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Any order row with this id, soft-deleted or not. */
export function findOrderIncludingDeleted(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The live row, locked until the transaction ends. */
export function lockOrder(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('orders').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

/**
 * One page of a user's orders, newest first (created_at desc, id asc, the index orders_user_keyset_idx),
 * after `cursor` (decision 185); each row carries its created_at as text for the next cursor.
 */
export function listUserOrdersPage(db: Db, userId: string, limit: number, cursor?: OrderCursor) {
  let query = db.selectFrom('orders').selectAll().select(cursorAt.as('cursor_at')).where('user_id', '=', userId).where('deleted_at', 'is', null);
  if (cursor) query = query.where((eb) => pastCursor(eb, { ...cursor, direction: 'after' }));
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export function updateOrder(db: Db, id: string, changes: Updateable<OrdersTable>, version: number) {
  return db
    .updateTable('orders')
    .set({ ...changes, version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function softDeleteOrder(db: Db, id: string, version: number) {
  return db
    .updateTable('orders')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/**
 * The other live orders that already carry this transaction id (compared without case) or this
 * screenshot's SHA-256: a proof used twice is flagged to staff.
 */
export async function findProofReuse(db: Db, orderId: string, proof: { transactionId: string | null; screenshotHash: string | null }) {
  const others = (column: 'reference' | 'hash', value: string | null) =>
    value === null
      ? Promise.resolve([] as string[])
      : db
          .selectFrom('orders')
          .select('id')
          .where((eb) => (column === 'reference' ? eb(eb.fn('lower', ['payment_reference']), '=', value.toLowerCase()) : eb('payment_proof_hash', '=', value)))
          .where('id', '<>', orderId)
          .where('deleted_at', 'is', null)
          .orderBy('created_at')
          .limit(20)
          .execute()
          .then((rows) => rows.map((row) => row.id));
  const [transactionId, screenshot] = await Promise.all([others('reference', proof.transactionId), others('hash', proof.screenshotHash)]);
  return { transactionId, screenshot };
}

/** The fields of a stored order a change reads (decision 249), as the contract's module takes them. */
export function orderBeforeChange(row: OrderRow): OrderBeforeChange {
  const iso = (value: Date | string) => new Date(value).toISOString();
  return {
    orderStatus: row.order_status,
    paymentStatus: row.payment_status,
    ...(row.proof_at || row.payment_reference ? { paymentProof: { transactionId: row.payment_reference, sentAt: iso(row.proof_at ?? row.created_at) } } : {}),
    ...(row.report_status && row.report_reason && row.reported_at
      ? {
          report: {
            status: row.report_status,
            reason: row.report_reason as ReportReason,
            note: row.report_note,
            reportedAt: iso(row.reported_at),
            ...(row.report_reply ? { reply: row.report_reply } : {}),
            ...(row.report_resolved_at ? { resolvedAt: iso(row.report_resolved_at) } : {}),
          },
        }
      : {}),
    ...(row.reveal_count > 0 && row.first_revealed_at
      ? { views: { count: row.reveal_count, firstAt: iso(row.first_revealed_at), firstDevice: row.first_reveal_device ?? '' } }
      : {}),
    ...(row.delivered_at ? { deliveredAt: iso(row.delivered_at) } : {}),
    ...(row.wise_email ? { wiseEmail: row.wise_email } : {}),
    ...(row.delivery_kind ? { deliveryKind: row.delivery_kind } : {}),
  };
}

/**
 * The columns that hold the fields a change set (decision 249). `updatedAt` is not among them: a row's
 * updated_at is always the database's time of the write (updateOrder).
 */
export function orderChangeColumns(fields: OrderChangeFields): Updateable<OrdersTable> {
  const { orderStatus, paymentStatus, cancelledAt, paymentProof, report, views } = fields;
  return {
    ...(orderStatus ? { order_status: orderStatus } : {}),
    ...(paymentStatus ? { payment_status: paymentStatus } : {}),
    ...(cancelledAt ? { cancelled_at: new Date(cancelledAt) } : {}),
    ...(paymentProof ? { payment_reference: paymentProof.transactionId, proof_at: new Date(paymentProof.sentAt) } : {}),
    ...(report
      ? {
          report_status: report.status,
          report_reason: report.reason,
          report_note: report.note,
          reported_at: new Date(report.reportedAt),
          report_reply: report.reply ?? '',
          report_resolved_at: report.resolvedAt ? new Date(report.resolvedAt) : null,
        }
      : {}),
    ...(views ? { reveal_count: views.count, first_revealed_at: new Date(views.firstAt), first_reveal_device: views.firstDevice } : {}),
  };
}
