import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { Order, OrderReport, PaymentProof } from '../contract/orders.ts';
import type { OrderRow, UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Secrets } from '../lib/secrets.ts';
import { deliveredSecretFields } from '../contract/delivered-secrets.ts';
import { ownerSecretGate } from '../lib/secret-gate.ts';

/**
 * Who reads the order: its owner sees the delivered credentials (password included) once the order is
 * paid and delivered; staff see the delivered email and proof image, never the password.
 */
export type OrderAudience = 'owner' | 'staff';

const credentialsDelivered = (row: OrderRow) =>
  (row.wise_email !== null || row.delivery_kind !== null) &&
  row.payment_status === 'paid' &&
  (row.order_status === 'delivered' || row.order_status === 'completed');

export async function presentOrder(row: OrderRow, audience: OrderAudience, secrets: Secrets, blobs: BlobStore): Promise<Order> {
  const order: Order = {
    id: row.id,
    productId: row.product_id,
    title: row.title,
    description: row.description,
    category: row.category,
    image: row.image,
    price: row.price,
    deliveryTime: row.delivery_time,
    userId: row.user_id,
    userEmail: row.user_email,
    userName: row.user_name,
    paymentStatus: row.payment_status,
    orderStatus: row.order_status,
    orderDate: new Date(row.order_date).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
  if (row.note) order.note = row.note;
  if (row.payment_method) order.paymentMethod = row.payment_method;
  if (row.coupon_code && row.list_price && row.discount) order.coupon = { code: row.coupon_code, listPrice: row.list_price, discount: row.discount };
  if (row.price_rule && row.unit_price) {
    const rule = JSON.parse(row.price_rule) as { kind: 'list' | 'tier' | 'customer'; listUnit: string; minQuantity?: number; percentOff?: number };
    order.pricing = {
      quantity: row.quantity,
      listUnit: rule.listUnit,
      unitPrice: row.unit_price,
      rule: rule.kind,
      ...(rule.minQuantity ? { minQuantity: rule.minQuantity } : {}),
      ...(rule.percentOff ? { percentOff: rule.percentOff } : {}),
    };
  }
  if (row.cancelled_at) order.cancelledAt = new Date(row.cancelled_at).toISOString();
  if (row.payment_session) order.payment = row.payment_session;
  if (row.proof_at) {
    const proof: PaymentProof = { transactionId: row.payment_reference, sentAt: new Date(row.proof_at).toISOString() };
    if (row.payment_proof) proof.screenshotUrl = await resolveImageUrl(blobs, row.payment_proof);
    if (audience === 'staff' && row.proof_reuse) {
      if (row.proof_reuse.transactionId.length > 0) proof.reusedTransactionIdOn = row.proof_reuse.transactionId;
      if (row.proof_reuse.screenshot.length > 0) proof.reusedScreenshotOn = row.proof_reuse.screenshot;
    }
    order.paymentProof = proof;
  }
  await addAfterSales(order, row, audience, blobs);
  if (row.reveal_count > 0 && row.first_revealed_at) {
    order.views = { count: row.reveal_count, firstAt: new Date(row.first_revealed_at).toISOString(), firstDevice: row.first_reveal_device ?? '' };
  }
  if (audience === 'staff') {
    addOtherDelivery(order, row);
    if (row.wise_email !== null) order.wiseEmail = row.wise_email;
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
    order.stockId = row.stock_id;
    if (row.service_stock_id) order.serviceStockId = row.service_stock_id;
    return order;
  }
  if (credentialsDelivered(row) && row.delivery_kind !== null) {
    addOtherDelivery(order, row);
    if (row.delivery_secret_enc) {
      const secret = await secrets.open(row.delivery_secret_enc, { entity: 'order', id: row.id });
      if (secret === null) order.deliverySecretUnreadable = true;
      else if (row.delivery_kind === 'server') order.serverPassword = secret;
      else if (row.delivery_kind === 'lines') order.deliveryLines = secret.split('\n');
    }
  } else if (credentialsDelivered(row)) {
    order.wiseEmail = row.wise_email!;
    if (row.wise_password_enc) {
      const password = await secrets.open(row.wise_password_enc, { entity: 'order', id: row.id });
      if (password === null) order.wisePasswordUnreadable = true;
      else order.wisePassword = password;
    }
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
  }
  return gateSecrets(order, row);
}

/** The owner's delivered secrets as this request may have them (decision 182): in clear, sealed to its vault, or left out. */
async function gateSecrets(order: Order, row: OrderRow): Promise<Order> {
  if (!deliveredSecretFields.some((field) => order[field] !== undefined)) return order;
  const gate = await ownerSecretGate(row.user_id);
  if (gate.kind === 'clear') return order;
  for (const field of deliveredSecretFields) {
    if (order[field] === undefined) continue;
    if (gate.kind === 'sealed') (order as unknown as Record<string, unknown>)[field] = await gate.seal(order[field]);
    else delete order[field];
  }
  if (gate.kind === 'withheld') order.secretsInVault = true;
  return order;
}

/** What may be shown of a server login, lines or a file (decision 069): to staff and to the customer alike, never a secret. */
function addOtherDelivery(order: Order, row: OrderRow) {
  const details = row.delivery_details;
  if (!row.delivery_kind || !details) return;
  order.deliveryKind = row.delivery_kind;
  if (details.kind === 'server') {
    order.serverHost = details.host;
    order.serverPort = details.port;
    order.serverUser = details.user;
  } else if (details.kind === 'lines') {
    order.deliveryLineCount = details.count;
  } else {
    order.deliveryFile = { name: details.name, size: details.size };
  }
}

/** A past delivery of another kind, named without its secret: host and user, the file's name, the line count. */
function pastLabel(details: NonNullable<OrderRow['delivery_details']>): string {
  if (details.kind === 'server') return `${details.user}@${details.host}:${details.port}`;
  if (details.kind === 'file') return details.name;
  return details.count === 1 ? '1 line' : `${details.count} lines`;
}

/** jo•••@example.com: enough for the customer to tell two accounts apart, not enough to use either. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const name = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at) : '';
  return `${name.slice(0, Math.min(2, Math.max(1, name.length - 1)))}•••${domain}`;
}

const iso = (value: Date | string | null) => (value === null ? undefined : new Date(value).toISOString());

/** Delivery time, warranty, the problem report and earlier deliveries (decisions 063, 064). */
async function addAfterSales(order: Order, row: OrderRow, audience: OrderAudience, blobs: BlobStore) {
  if (row.delivered_at) order.deliveredAt = iso(row.delivered_at);
  if (row.warranty_ends_at) order.warrantyEndsAt = iso(row.warranty_ends_at);
  if (row.credentials_rotated_at) order.credentialsRotatedAt = iso(row.credentials_rotated_at);
  if (row.report_status && row.report_reason && row.reported_at) {
    order.report = {
      status: row.report_status,
      reason: row.report_reason as OrderReport['reason'],
      note: row.report_note,
      reportedAt: iso(row.reported_at)!,
      ...(row.report_image ? { image: await resolveImageUrl(blobs, row.report_image) } : {}),
      ...(row.report_reply ? { reply: row.report_reply } : {}),
      ...(row.report_resolved_at ? { resolvedAt: iso(row.report_resolved_at) } : {}),
    };
  }
  if (row.delivery_history.length > 0) {
    order.deliveryHistory = row.delivery_history.map((past) =>
      past.deliveryKind && past.deliveryDetails
        ? {
            at: past.at,
            kind: past.kind,
            wiseEmail: '',
            deliveryKind: past.deliveryKind,
            label: audience === 'staff' || past.deliveryKind !== 'server' ? pastLabel(past.deliveryDetails) : maskEmail(pastLabel(past.deliveryDetails)),
          }
        : audience === 'staff'
          ? { at: past.at, kind: past.kind, wiseEmail: past.wiseEmail, stockId: past.stockId }
          : { at: past.at, kind: past.kind, wiseEmail: maskEmail(past.wiseEmail) },
    );
  }
}

/** An order as `viewer` may see it: the owner gets the delivered credentials, staff never another's password. */
export function toSyncedOrder(row: OrderRow, viewer: UserRow, deps: Pick<Deps, 'secrets' | 'blobs'>): Promise<Order> {
  return presentOrder(row, row.user_id === viewer.id ? 'owner' : 'staff', deps.secrets, deps.blobs);
}
