/**
 * Delivered files (decision 069) kept on the customer's device: each file delivered to one of the user's
 * own orders is fetched once after the sync that brings it (GET /api/orders/{id}/file, which only its
 * customer and staff may read) and kept in the user's IndexedDB, so it opens offline. Deleted with the
 * user's database at logout. The bytes are sealed like a password: with the device key while the vault is
 * off (decision 254), to the vault when it is on (decision 183); the server gives the file only to an unlocked vault.
 */
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { AppError } from '../lib/app-error.ts';
import type { ApiClient } from '../lib/api-client.ts';
import type { DeliveredFile, UserDb } from './local-db.ts';
import { checkVaultSeal, withVaultSeal } from './vault-seal.ts';
import { openSealedValue } from './vault-session.ts';

/** GET /api/orders/{id}/file as bytes, or an AppError with the server's words. */
export async function fetchDeliveredFile(client: ApiClient, order: Pick<Order, 'id' | 'deliveryFile'>): Promise<DeliveredFile> {
  let response: Response;
  try {
    response = await client.orders[':id'].file.$get({ param: { id: order.id } });
  } catch (cause) {
    throw new AppError('network', 'You are offline and this file is not saved on this device yet.', { cause });
  }
  if (
    response.status === 403 &&
    (
      await response
        .clone()
        .json()
        .catch(() => null)
    )?.error?.code === 'vault_locked'
  ) {
    throw new AppError('vault_locked', 'Unlock the vault to download this file');
  }
  if (!response.ok) throw new AppError(response.status === 404 ? 'not_found' : 'forbidden', `The file could not be downloaded (${response.status}).`);
  const bytes = await response.arrayBuffer();
  return {
    orderId: order.id,
    name: order.deliveryFile?.name ?? 'file',
    size: bytes.byteLength,
    type: response.headers.get('content-type') ?? 'application/octet-stream',
    bytes,
    savedAt: new Date().toISOString(),
  };
}

/** Whether the copy on the device is the file the order now names (a replacement brings another). */
const isCurrent = (kept: DeliveredFile | undefined, order: Pick<Order, 'deliveryFile'>) =>
  !!kept && !!order.deliveryFile && kept.name === order.deliveryFile.name && kept.size === order.deliveryFile.size;

/** Keeps the files of these (own, delivered) orders on the device; one failure does not stop the others. */
export async function keepDeliveredFiles(db: UserDb, client: ApiClient, orders: Order[]): Promise<void> {
  for (const order of orders) {
    if (order.deliveryKind !== 'file' || !order.deliveryFile) continue;
    if (isCurrent(await db.deliveredFiles.get(order.id), order)) continue;
    try {
      await keepFile(db, await fetchDeliveredFile(client, order));
    } catch (error) {
      console.warn('Could not keep a delivered file for offline use', error);
    }
  }
}

/** The order's file from the device when it is there, from the server otherwise (and then kept). */
export async function openDeliveredFile(db: UserDb, client: ApiClient, order: Order): Promise<DeliveredFile> {
  const kept = await db.deliveredFiles.get(order.id);
  if (isCurrent(kept, order)) return { ...kept!, bytes: (await openSealedValue(db, kept!.bytes)) as ArrayBuffer };
  const fetched = await fetchDeliveredFile(client, order);
  await keepFile(db, fetched);
  return fetched;
}

/** Keeps a file on the device, its bytes sealed first: to the vault when it is on, with the device key when off (decision 254). */
function keepFile(db: UserDb, file: DeliveredFile): Promise<void> {
  return withVaultSeal(db, async (seal) => {
    const bytes = (await seal.sealDelivered(file.bytes)) as ArrayBuffer | string;
    await db.transaction('rw', [db.deliveredFiles, db.meta], async () => {
      await checkVaultSeal(db, seal);
      await db.deliveredFiles.put({ ...file, bytes });
    });
  });
}

/** Hands the bytes to the browser as a download with the file's own name. */
export function saveFile(file: DeliveredFile): void {
  if (typeof file.bytes === 'string') throw new AppError('vault_locked', 'Unlock the vault to save this file');
  const url = URL.createObjectURL(new Blob([file.bytes], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
