import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { DeliveryDetails, OtherDeliveryKind } from '../contract/deliveries.ts';
import type { Database, OrderRow, OrdersTable } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { parseBlobRef } from '../contract/uploads.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { OrderChange } from './deliver.ts';

/**
 * A delivery of another kind than an account (decision 069), ready for the order's row: what may be
 * shown, the secret sealed with the credentials key, a blind index of each secret. Made before the
 * transaction, so no encryption runs while rows are locked.
 */
export interface SealedDelivery {
  kind: OtherDeliveryKind;
  columns: Updateable<OrdersTable>;
  /** The blind indexes the duplicate check compares (none for a file). */
  indexes: string[];
  /** What the audit row may name: never a secret. */
  audit: Record<string, unknown>;
}

export async function sealOtherDelivery(deps: Pick<Deps, 'secrets' | 'blobs'>, change: OrderChange): Promise<SealedDelivery | null> {
  let kind: OtherDeliveryKind;
  let details: DeliveryDetails;
  let secrets: string[] = [];
  let audit: Record<string, unknown>;
  if (change.server) {
    const { host, port, user, password } = change.server;
    kind = 'server';
    details = { kind, host, port, user };
    secrets = [password];
    audit = { host, port, user };
  } else if (change.lines) {
    kind = 'lines';
    details = { kind, count: change.lines.length };
    secrets = change.lines;
    audit = { lineCount: change.lines.length };
  } else if (change.file) {
    kind = 'file';
    const ref = parseBlobRef(change.file.path)!;
    const bytes = await deps.blobs.read(ref.bucket, ref.path);
    if (!bytes) throw badRequest('file: no such upload; upload the file again', [{ path: 'file', message: 'no such upload; upload the file again' }]);
    details = { kind, path: change.file.path, name: change.file.name, size: bytes.byteLength };
    audit = { fileName: change.file.name, fileSize: bytes.byteLength };
  } else {
    return null;
  }
  const sealed = secrets.length > 0 ? await deps.secrets.encrypt(kind === 'lines' ? secrets.join('\n') : secrets[0]!) : null;
  const indexes = [...new Set(await Promise.all(secrets.map((secret) => deps.secrets.blindIndex(secret))))];
  return {
    kind,
    indexes,
    audit,
    columns: {
      delivery_kind: kind,
      delivery_details: JSON.stringify(details),
      delivery_secret_enc: sealed,
      delivery_secret_indexes: indexes.length > 0 ? indexes : null,
      // One delivery at a time: an account delivered before goes to the history, its columns empty.
      ...noAccountDelivery,
      service_stock_id: null,
    },
  };
}

/** The columns of an account (and the Wise stock it came from), emptied when another kind is delivered over it. */
export const noAccountDelivery = {
  wise_email: null,
  wise_email_index: null,
  wise_password_enc: null,
  wise_password_index: null,
  wise_image: null,
  stock_id: null,
} satisfies Updateable<OrdersTable>;

/** The columns of another kind, emptied when an account is delivered over it. */
export const noOtherDelivery: Updateable<OrdersTable> = {
  delivery_kind: null,
  delivery_details: null,
  delivery_secret_enc: null,
  delivery_secret_indexes: null,
};

/** Whether an order carries a delivery of any kind. */
export const hasDelivery = (row: OrderRow) => row.wise_email !== null || row.stock_id !== null || row.delivery_kind !== null;

const kindWords: Record<string, string> = { account: 'an account', file: 'a file', server: 'a server login', lines: 'a list of lines' };

/** A service delivers one kind: a delivery of another is refused with a sentence naming both (400). */
export async function assertServiceKind(trx: Transaction<Database>, order: OrderRow, delivering: string) {
  const service = await trx.selectFrom('services').select('delivery_kind').where('id', '=', order.product_id).executeTakeFirst();
  const expected = service?.delivery_kind ?? 'account';
  if (expected !== delivering) {
    const field = delivering === 'account' ? 'wiseEmail' : delivering;
    throw badRequest(`${field}: this service delivers ${kindWords[expected]}, not ${kindWords[delivering]}`, [
      { path: field, message: `this service delivers ${kindWords[expected]}, not ${kindWords[delivering]}` },
    ]);
  }
}

/**
 * The duplicate check of a server password or of lines, through the blind indexes only (decision 069):
 * among other live, paid orders (their passwords of every kind) and live stock. A match is 409
 * duplicate_credentials naming how many secrets and where, unless the delivery overrides it.
 */
export async function assertNoDuplicateSecrets(trx: Transaction<Database>, orderId: string, delivery: SealedDelivery, override: boolean) {
  if (delivery.indexes.length === 0 || override) return;
  const { inOrders, inStock } = await findKnownSecrets(trx, orderId, delivery.indexes);
  const known = new Set([...inOrders, ...inStock]);
  if (known.size === 0) return;
  const what = delivery.kind === 'server' ? 'This server password is' : known.size === 1 ? '1 of these lines is' : `${known.size} of these lines are`;
  const where = [...(inStock.size > 0 ? ['in stock'] : []), ...(inOrders.size > 0 ? ['delivered to another order'] : [])].join(' and ');
  throw new ApiError('duplicate_credentials', `${what} already ${where}. Send overrideDuplicates to deliver anyway.`, {
    exactMatch: false,
    emailExists: false,
    passwordExists: true,
    passwordIn: [...(inStock.size > 0 ? ['stock'] : []), ...(inOrders.size > 0 ? ['order'] : [])],
    duplicateCount: known.size,
  });
}

/**
 * Which of these blind indexes are already a secret of another live, paid order (of any kind) or of live
 * stock (Wise or a service's), as assertNoDuplicateSecrets compares them. `scan` bounds the rows read
 * per table (the bulk add, decision 075, asks in chunks with a larger bound).
 */
export async function findKnownSecrets(trx: Kysely<Database> | Transaction<Database>, orderId: string, indexes: string[], scan = DUPLICATE_SCAN) {
  const list = sql<string[]>`${indexes}::text[]`;
  const [orders, stock, serviceStock] = await Promise.all([
    trx
      .selectFrom('orders')
      .select(
        sql<
          string[]
        >`array(select unnest(coalesce(delivery_secret_indexes, '{}'::text[]) || array_remove(array[wise_password_index], null)) intersect select unnest(${list}))`.as(
          'found',
        ),
      )
      .where('deleted_at', 'is', null)
      .where('payment_status', '=', 'paid')
      .where('id', '<>', orderId)
      .where((eb) => eb.or([eb('delivery_secret_indexes', '&&', list), eb('wise_password_index', '=', sql<string>`any(${list})`)]))
      .limit(scan)
      .execute(),
    trx
      .selectFrom('wise_stocks')
      .select('wise_password_index')
      .where('deleted_at', 'is', null)
      .where('wise_password_index', '=', sql<string>`any(${list})`)
      .limit(scan)
      .execute(),
    // A service's own stock (decision 072), by blind index.
    trx
      .selectFrom('service_stocks')
      .select(sql<string[]>`array(select unnest(secret_indexes) intersect select unnest(${list}))`.as('found'))
      .where('deleted_at', 'is', null)
      .where('secret_indexes', '&&', list)
      .limit(scan)
      .execute(),
  ]);
  return {
    inOrders: new Set(orders.flatMap((row) => row.found)),
    inStock: new Set([...stock.map((row) => row.wise_password_index), ...serviceStock.flatMap((row) => row.found)]),
  };
}

const DUPLICATE_SCAN = 1000;
