import { sql } from 'kysely';
import type { PaymentRail } from '../contract/payments.ts';
import type { PaymentIntentRow } from '../db/payment-schema.ts';
import type { Deps } from '../deps.ts';
import { queryBinanceOrder } from './binance-pay.ts';
import { executeBkashPayment, queryBkashPayment, type BkashPaymentState } from './bkash.ts';
import { toMicro } from './money.ts';
import { RailError } from './rail-http.ts';
import { enabledRail, loadRail, type LoadedRail } from './rail-store.ts';
import { settle } from './settle.ts';
import { incomingTransfers } from './tron.ts';

/** What one round asked and changed: the requests per rail are what reconciliation costs. */
export interface RoundReport {
  requests: Record<PaymentRail, number>;
  settled: number;
}

export const emptyReport = (): RoundReport => ({ requests: { usdt_trc20: 0, binance_pay: 0, bkash: 0 }, settled: 0 });

/** The newest confirmed transfer time seen per address, by this process: the next read starts a little before it. */
const seenUpTo = new Map<string, number>();
/** Transfers are read again this far back from the newest seen: a block confirmed late is never skipped. */
const OVERLAP_MS = 10 * 60_000;

/**
 * Reads the confirmed USDT transfers into the shop's address and settles each new one (decision 201).
 * `recent` also reads for payments that ended in the last day, so a late transfer is held for staff.
 */
export async function watchTron(deps: Deps, report = emptyReport(), recent = false): Promise<RoundReport> {
  const rail = await enabledRail(deps.db, deps.secrets, 'usdt_trc20');
  if (!rail) return report;
  const address = rail.settings.address!;
  const earliest = await deps.db
    .selectFrom('payment_intents')
    .select(sql<Date | null>`min(created_at)`.as('at'))
    .where('rail', '=', 'usdt_trc20')
    .where('pay_to', '=', address)
    .where((eb) => (recent ? eb.or([eb('status', '=', 'open'), eb('created_at', '>', sql<Date>`now() - interval '1 day'`)]) : eb('status', '=', 'open')))
    .executeTakeFirst();
  if (!earliest?.at) return report;
  const since = Math.max(new Date(earliest.at).getTime() - 60_000, (seenUpTo.get(address) ?? 0) - OVERLAP_MS);
  const source = { apiUrl: deps.config.payments!.tronApiUrl, apiKey: rail.secrets.apiKey, address, contract: rail.settings.contract! };
  const { transfers, requests } = await incomingTransfers(source, recent ? new Date(earliest.at).getTime() - 60_000 : since);
  report.requests.usdt_trc20 += requests;
  if (transfers.length === 0) return report;
  seenUpTo.set(address, Math.max(seenUpTo.get(address) ?? 0, ...transfers.map((t) => t.timestampMs)));
  const keys = transfers.map((t) => `tron:${t.txid}`);
  const known = new Set((await deps.db.selectFrom('payment_events').select('event_key').where('event_key', 'in', keys).execute()).map((row) => row.event_key));
  for (const transfer of transfers) {
    if (known.has(`tron:${transfer.txid}`)) continue;
    await settle(deps, {
      rail: 'usdt_trc20',
      key: `tron:${transfer.txid}`,
      kind: 'payment',
      reference: transfer.txid,
      amount: transfer.amount,
      currency: 'USDT',
      match: { transfer: { payTo: address, amount: transfer.amount, atMs: transfer.timestampMs } },
      details: { from: transfer.from, at: new Date(transfer.timestampMs).toISOString() },
    });
    report.settled += 1;
  }
  return report;
}

/** Asks Binance Pay and bKash about each open payment (or one order's), settling what they confirm. */
export async function reconcileOpen(deps: Deps, report = emptyReport(), orderId?: string): Promise<RoundReport> {
  const open = await deps.db
    .selectFrom('payment_intents')
    .selectAll()
    .where('status', '=', 'open')
    .where('rail', 'in', ['binance_pay', 'bkash'])
    .$if(orderId !== undefined, (qb) => qb.where('order_id', '=', orderId!))
    .orderBy('created_at')
    .limit(5_000)
    .execute();
  if (open.length === 0) return report;
  const rails = new Map<PaymentRail, LoadedRail | undefined>();
  for (const rail of ['binance_pay', 'bkash'] as const) rails.set(rail, await loadRail(deps.db, deps.secrets, rail));
  await eachLimited(open, 8, async (intent) => {
    const rail = rails.get(intent.rail);
    if (!rail?.secrets || Object.keys(rail.secrets).length === 0) return;
    try {
      report.settled += await askRail(deps, rail, intent, report);
    } catch (error) {
      if (!(error instanceof RailError)) throw error;
      deps.logger.warn('payments: a rail did not answer about a payment', { rail: intent.rail, intent: intent.id, error: error.message });
    }
  });
  return report;
}

async function askRail(deps: Deps, rail: LoadedRail, intent: PaymentIntentRow, report: RoundReport): Promise<number> {
  const urls = deps.config.payments!;
  if (intent.rail === 'binance_pay') {
    report.requests.binance_pay += 1;
    const answer = await queryBinanceOrder(
      { apiUrl: urls.binancePayApiUrl, apiKey: rail.secrets.apiKey!, secretKey: rail.secrets.secretKey! },
      intent.reference!,
    );
    if (answer.status !== 'PAID') return 0;
    await settle(deps, {
      rail: 'binance_pay',
      key: `binance:pay:${intent.reference}`,
      kind: 'payment',
      reference: answer.transactionId || intent.reference!,
      amount: toMicro(answer.amount),
      currency: answer.currency,
      match: { reference: intent.reference! },
      details: { via: 'query' },
    });
    return 1;
  }
  const account = {
    apiUrl: urls.bkashApiUrl,
    appKey: rail.secrets.appKey!,
    appSecret: rail.secrets.appSecret!,
    username: rail.secrets.username!,
    password: rail.secrets.password!,
  };
  report.requests.bkash += 1;
  let state = await queryBkashPayment(account, intent.reference!);
  if (state.transactionStatus === 'Initiated') {
    // The customer may have approved it and the callback never came: executing completes it (or is refused).
    report.requests.bkash += 1;
    state = await executeBkashPayment(account, intent.reference!);
  }
  return (await settleBkash(deps, intent.reference!, state, 'query')) ? 1 : 0;
}

/** A completed bKash payment, from an execute or a query, settled under one key whichever came first. */
export async function settleBkash(deps: Deps, paymentId: string, state: BkashPaymentState, via: string) {
  if (state.transactionStatus !== 'Completed') return undefined;
  return settle(deps, {
    rail: 'bkash',
    key: `bkash:pay:${paymentId}`,
    kind: 'payment',
    reference: state.trxId || paymentId,
    amount: toMicro(state.amount),
    currency: state.currency || 'BDT',
    match: { reference: paymentId },
    details: { via },
  });
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
