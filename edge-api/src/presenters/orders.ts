import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { Order, OrderReport, PaymentProof } from '../contract/orders.ts';
import type { OrderRow, UserRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Secrets } from '../lib/secrets.ts';

/**
 * Who reads the order: its owner sees the delivered credentials (password included) once the order is
 * paid and delivered; staff see the delivered email and proof image, never the password.
 */
export type OrderAudience = 'owner' | 'staff';

const credentialsDelivered = (row: OrderRow) =>
  row.wise_email !== null && row.payment_status === 'paid' && (row.order_status === 'delivered' || row.order_status === 'completed');

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
  if (row.cancelled_at) order.cancelledAt = new Date(row.cancelled_at).toISOString();
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
    if (row.wise_email !== null) order.wiseEmail = row.wise_email;
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
    order.stockId = row.stock_id;
    return order;
  }
  if (credentialsDelivered(row)) {
    order.wiseEmail = row.wise_email!;
    if (row.wise_password_enc) {
      const password = await secrets.open(row.wise_password_enc, { entity: 'order', id: row.id });
      if (password === null) order.wisePasswordUnreadable = true;
      else order.wisePassword = password;
    }
    if (row.wise_image) order.wiseImage = await resolveImageUrl(blobs, row.wise_image);
  }
  return order;
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
      audience === 'staff'
        ? { at: past.at, kind: past.kind, wiseEmail: past.wiseEmail, stockId: past.stockId }
        : { at: past.at, kind: past.kind, wiseEmail: maskEmail(past.wiseEmail) },
    );
  }
}

/** An order as `viewer` may see it: the owner gets the delivered credentials, staff never another's password. */
export function toSyncedOrder(row: OrderRow, viewer: UserRow, deps: Pick<Deps, 'secrets' | 'blobs'>): Promise<Order> {
  return presentOrder(row, row.user_id === viewer.id ? 'owner' : 'staff', deps.secrets, deps.blobs);
}
