import type { ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import type { UserDb } from '../../db/local-db.ts';
import { requestSync } from '../../db/sync-engine.ts';

/**
 * Items of a service's stock as an answer gave them, kept on the device without their secrets (the dialogs
 * never show them; the sync brings the row as the device keeps it, sealed when the vault is on: decision
 * 068). An answer older than the copy the device holds (a slow list read overtaken by a later change) never
 * overwrites it.
 */
export async function keepServiceStock(db: UserDb | null, rows: ServiceStock[]) {
  const masked = rows.map(({ password: _password, lines: _lines, ...row }): ServiceStock => ({ ...row, secretMasked: true }));
  if (db && masked.length > 0) {
    await db.transaction('rw', db.serviceStocks, async () => {
      const held = await db.serviceStocks.bulkGet(masked.map((row) => row.id));
      await db.serviceStocks.bulkPut(masked.filter((row, i) => (held[i]?.version ?? -1) <= row.version));
    });
  }
  requestSync().catch((error: unknown) => console.warn('Sync after a stock change failed', error));
}
