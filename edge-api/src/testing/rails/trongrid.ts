import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';

/**
 * TronGrid's `GET /v1/accounts/{address}/transactions/trc20`, as its documentation describes it
 * (developers.tron.network, "TRC-20 transaction history"; the tron-grid README): filters only_confirmed /
 * only_unconfirmed (not both), only_to / only_from, contract_address, min_timestamp / max_timestamp (ms,
 * aliases min_block_timestamp / max_block_timestamp), order_by block_timestamp,asc|desc (desc by default),
 * limit (20 by default, at most 200) and `fingerprint` to page on with the other parameters unchanged.
 * Each row: transaction_id, token_info {symbol, address, decimals, name}, block_timestamp, from, to,
 * type "Transfer", value (the token's smallest units, as text). An API key, when the stand-in is given
 * one, must come in TRON-PRO-API-KEY (401 otherwise).
 */
export interface StandInTransfer {
  txid: string;
  from: string;
  to: string;
  /** In the token's smallest units. */
  value: string;
  contract: string;
  blockTimestamp: number;
  confirmed: boolean;
}

export const STAND_IN_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export function tronGridStandIn(options: { apiKey?: string } = {}) {
  const transfers: StandInTransfer[] = [];
  const counts = { requests: 0 };
  const app = new Hono();
  app.get('/v1/accounts/:address/transactions/trc20', (c) => {
    counts.requests += 1;
    if (options.apiKey && c.req.header('TRON-PRO-API-KEY') !== options.apiKey)
      return c.json({ success: false, error: 'ApiKey not exists', statusCode: 401 }, 401);
    const q = (name: string, alias?: string) => c.req.query(name) ?? (alias ? c.req.query(alias) : undefined);
    if (q('only_confirmed') === 'true' && q('only_unconfirmed') === 'true')
      return c.json({ success: false, error: 'only_confirmed and only_unconfirmed cannot be used together', statusCode: 400 }, 400);
    const limit = Number(q('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) return c.json({ success: false, error: 'limit must be between 1 and 200', statusCode: 400 }, 400);
    const address = c.req.param('address');
    const min = Number(q('min_timestamp', 'min_block_timestamp') ?? 0);
    const max = Number(q('max_timestamp', 'max_block_timestamp') ?? Date.now() + 3_600_000);
    const contract = q('contract_address');
    const ascending = (q('order_by') ?? 'block_timestamp,desc') === 'block_timestamp,asc';
    const rows = transfers
      .filter((t) => t.to === address || t.from === address)
      .filter((t) => q('only_to') !== 'true' || t.to === address)
      .filter((t) => q('only_from') !== 'true' || t.from === address)
      .filter((t) => (q('only_confirmed') === 'true' ? t.confirmed : q('only_unconfirmed') === 'true' ? !t.confirmed : true))
      .filter((t) => !contract || t.contract === contract)
      .filter((t) => t.blockTimestamp >= min && t.blockTimestamp <= max)
      .sort((a, b) => (ascending ? a.blockTimestamp - b.blockTimestamp : b.blockTimestamp - a.blockTimestamp));
    // The fingerprint names the last row of the previous page.
    const after = c.req.query('fingerprint');
    const start = after ? rows.findIndex((t) => t.txid === Buffer.from(after, 'base64url').toString()) + 1 : 0;
    const page = rows.slice(start, start + limit);
    const more = start + limit < rows.length;
    const fingerprint = more ? Buffer.from(page[page.length - 1]!.txid).toString('base64url') : undefined;
    return c.json({
      data: page.map((t) => ({
        transaction_id: t.txid,
        token_info: { symbol: 'USDT', address: t.contract, decimals: 6, name: 'Tether USD' },
        block_timestamp: t.blockTimestamp,
        from: t.from,
        to: t.to,
        type: 'Transfer',
        value: t.value,
      })),
      success: true,
      meta: {
        at: Date.now(),
        page_size: page.length,
        ...(fingerprint && { fingerprint, links: { next: `${new URL(c.req.url).href}&fingerprint=${fingerprint}` } }),
      },
    });
  });
  /** A transfer made on the chain: unconfirmed until `confirm` (or at once with confirmed: true). */
  const transfer = (t: { to: string; amount: string; from?: string; contract?: string; confirmed?: boolean; at?: number }) => {
    const [whole, fraction = ''] = t.amount.split('.');
    const row: StandInTransfer = {
      txid: randomBytes(32).toString('hex'),
      from: t.from ?? 'TPayerStandIn1111111111111111111111'.slice(0, 34),
      to: t.to,
      value: (BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6))).toString(),
      contract: t.contract ?? STAND_IN_USDT,
      blockTimestamp: t.at ?? Date.now(),
      confirmed: t.confirmed ?? true,
    };
    transfers.push(row);
    return row;
  };
  const confirm = (txid: string) => {
    const row = transfers.find((t) => t.txid === txid);
    if (row) row.confirmed = true;
    return row;
  };
  return { app, transfers, counts, transfer, confirm };
}
