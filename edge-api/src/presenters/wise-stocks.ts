import { resolveImageUrl, type BlobStore } from '../blobs/blob-store.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import type { StockRow } from '../db/schema.ts';
import type { Secrets } from '../lib/secrets.ts';

/** What an answer needs beyond the row: the password is decrypted, blob references become URLs. */
export async function toWiseStock(row: StockRow, secrets: Secrets, blobs: BlobStore): Promise<WiseStock> {
  const [wisePassword, authImage, docImg1, docImg2] = await Promise.all([
    secrets.open(row.wise_password_enc, { entity: 'wise_stock', id: row.id }),
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
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
}
