import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/**
 * How a stock's password is shown: an admin's copy holds it; a moderator's holds it masked, and asks
 * the server for it (which records who read it) only when revealed.
 */
export function revealFor(stock: Pick<WiseStock, 'id' | 'wisePasswordMasked'>): (() => Promise<string>) | undefined {
  if (!stock.wisePasswordMasked) return undefined;
  return async () => (await unwrap(api['wise-stocks'][':id'].reveal.$post({ param: { id: stock.id } }))).wisePassword;
}
