import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import type { StockRow } from '../db/schema.ts';
import type { Secrets } from '../lib/secrets.ts';

/** Who reads a stock: an admin sees its password; a moderator sees it masked, and reveals it one at a time (audited). */
export type StockViewer = 'admin' | 'moderator';

/** What an answer needs beyond the row: the password is decrypted (for an admin), blob references become URLs. */
export async function toWiseStock(row: StockRow, secrets: Secrets, blobs: BlobStore, viewer: StockViewer): Promise<WiseStock> {
  const masked = viewer !== 'admin';
  const [wisePassword, authImage, docImg1, docImg2] = await Promise.all([
    masked ? '' : secrets.open(row.wise_password_enc, { entity: 'wise_stock', id: row.id }),
    resolveImageUrl(blobs, row.auth_image),
    resolveImageUrl(blobs, row.doc_img1),
    resolveImageUrl(blobs, row.doc_img2),
  ]);
  return {
    id: row.id,
    wiseName: row.wise_name,
    wiseEmail: row.wise_email,
    wisePassword: wisePassword ?? '',
    ...(wisePassword === null && { wisePasswordUnreadable: true as const }),
    ...(masked && { wisePasswordMasked: true as const }),
    authImage,
    docImg1,
    docImg2,
    userName: row.user_name,
    userEmail: row.user_email,
    serviceName: row.service_name,
    status: row.status,
    soldTo: row.sold_to,
    orderId: row.order_id,
    notes: row.notes,
    ...(row.batch_id && { batchId: row.batch_id }),
    ...(row.faulty_at && { faultyAt: new Date(row.faulty_at).toISOString() }),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
}
