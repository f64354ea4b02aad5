import { unitsToMicro } from './money.ts';
import { asRecord, asText, RailError, railCall } from './rail-http.ts';

/** A confirmed TRC20 transfer into the shop's address. */
export interface TronTransfer {
  txid: string;
  from: string;
  to: string;
  /** In micro-units of the token (USDT has six decimals). */
  amount: bigint;
  timestampMs: number;
}

export interface TronSource {
  apiUrl: string;
  apiKey?: string;
  address: string;
  contract: string;
}

/** Pages read per call at most: 200 transfers each. */
const MAX_PAGES = 25;
const PAGE = 200;

/**
 * The confirmed (solidified) transfers of `contract` into `address` since `sinceMs`, oldest first, through
 * TronGrid's `GET /v1/accounts/{address}/transactions/trc20` (only_confirmed, only_to, contract_address,
 * min_timestamp, order_by, limit; further pages by `fingerprint` with the other parameters unchanged).
 * Answers how many requests it took: the cost reconciliation reports.
 */
export async function incomingTransfers(source: TronSource, sinceMs: number): Promise<{ transfers: TronTransfer[]; requests: number }> {
  const base = `${source.apiUrl.replace(/\/+$/, '')}/v1/accounts/${encodeURIComponent(source.address)}/transactions/trc20`;
  const query = new URLSearchParams({
    only_confirmed: 'true',
    only_to: 'true',
    contract_address: source.contract,
    min_timestamp: String(Math.max(0, Math.floor(sinceMs))),
    order_by: 'block_timestamp,asc',
    limit: String(PAGE),
  });
  const headers: Record<string, string> = source.apiKey ? { 'TRON-PRO-API-KEY': source.apiKey } : {};
  const transfers: TronTransfer[] = [];
  let requests = 0;
  for (let fingerprint: string | undefined; requests < MAX_PAGES;) {
    if (fingerprint) query.set('fingerprint', fingerprint);
    const { status, json } = await railCall('TronGrid', `${base}?${query}`, { method: 'GET', headers });
    requests += 1;
    const body = asRecord(json);
    if (status !== 200 || body.success === false) throw new RailError('TronGrid', `answered ${status}: ${asText(body.error) || 'not a success'}`);
    const rows = Array.isArray(body.data) ? body.data : [];
    for (const row of rows) {
      const transfer = readTransfer(asRecord(row), source);
      if (transfer) transfers.push(transfer);
    }
    fingerprint = asText(asRecord(body.meta).fingerprint) || undefined;
    if (!fingerprint || rows.length < PAGE) break;
  }
  return { transfers, requests };
}

/** A row of the answer as a transfer into the address, or undefined when it is anything else. */
function readTransfer(row: Record<string, unknown>, source: TronSource): TronTransfer | undefined {
  const token = asRecord(row.token_info);
  if (asText(row.type) !== 'Transfer' || asText(row.to) !== source.address || asText(token.address) !== source.contract) return undefined;
  const decimals = typeof token.decimals === 'number' ? token.decimals : Number(asText(token.decimals));
  const amount = Number.isInteger(decimals) ? unitsToMicro(asText(row.value), decimals) : undefined;
  const txid = asText(row.transaction_id);
  const timestampMs = Number(row.block_timestamp);
  if (amount === undefined || !/^[0-9a-f]{64}$/i.test(txid) || !Number.isFinite(timestampMs)) return undefined;
  return { txid: txid.toLowerCase(), from: asText(row.from), to: source.address, amount, timestampMs };
}
