import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { binancePayStandIn, BINANCE_TEST_ACCOUNT, type SignedWebhook } from './rails/binance-pay.ts';
import { bkashStandIn, BKASH_TEST_ACCOUNT } from './rails/bkash.ts';
import { STAND_IN_USDT, tronGridStandIn } from './rails/trongrid.ts';

/**
 * TronGrid, Binance Pay and bKash on this machine, each following its public documentation (see
 * rails/*.ts and docs/payments.md), on one port: /trongrid, /binance, /bkash, and /control for the test
 * to act as the customer (pay, approve) and as the chain (confirm a transfer). Tests talk to it over HTTP
 * whether it runs in their process or was started by the Workers suite (TEST_PAYMENT_STAND_INS_URL).
 */
export async function startPaymentStandIns(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const tron = tronGridStandIn();
  const binance = binancePayStandIn();
  const bkash = bkashStandIn();
  const app = new Hono();
  app.route('/trongrid', tron.app);
  app.route('/binance', binance.app);
  app.route('/bkash', bkash.app);
  app.post('/control/tron/transfer', async (c) => c.json(tron.transfer(await c.req.json())));
  app.post('/control/tron/confirm', async (c) => c.json(tron.confirm((await c.req.json<{ txid: string }>()).txid) ?? null));
  app.post('/control/binance/:what', async (c) => {
    const ref = await c.req.json<{ prepayId?: string; merchantTradeNo?: string }>();
    const what = c.req.param('what');
    return c.json(what === 'pay' ? binance.pay(ref) : what === 'refund' ? binance.refund(ref) : binance.closed(ref));
  });
  app.post('/control/bkash/approve', async (c) => c.json({ callback: bkash.approve((await c.req.json<{ paymentID: string }>()).paymentID) }));
  app.get('/control/requests', (c) => c.json({ tron: tron.counts.requests, binance: binance.counts.requests, bkash: bkash.counts.requests }));
  const server = await new Promise<ServerType>((done) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => done(started));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return { url, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** What a test does with the stand-ins, over HTTP. */
export function paymentStandInClient(url: string) {
  const control = async <T>(path: string, body: unknown): Promise<T> => {
    const answer = await fetch(`${url}/control/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`stand-in ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  return {
    url,
    tronApiUrl: `${url}/trongrid`,
    binancePayApiUrl: `${url}/binance`,
    bkashApiUrl: `${url}/bkash`,
    usdtContract: STAND_IN_USDT,
    binanceAccount: BINANCE_TEST_ACCOUNT,
    bkashAccount: BKASH_TEST_ACCOUNT,
    /** A transfer of `amount` USDT into `to`, confirmed (solidified) unless told otherwise. */
    transfer: (t: { to: string; amount: string; confirmed?: boolean; at?: number }) => control<{ txid: string }>('tron/transfer', t),
    confirm: (txid: string) => control<unknown>('tron/confirm', { txid }),
    binancePay: (prepayId: string) => control<SignedWebhook>('binance/pay', { prepayId }),
    binanceRefund: (prepayId: string) => control<SignedWebhook>('binance/refund', { prepayId }),
    binanceClosed: (prepayId: string) => control<SignedWebhook>('binance/closed', { prepayId }),
    bkashApprove: (paymentID: string) => control<{ callback: string }>('bkash/approve', { paymentID }),
    requests: async () => (await (await fetch(`${url}/control/requests`)).json()) as { tron: number; binance: number; bkash: number },
  };
}

export type PaymentStandInClient = ReturnType<typeof paymentStandInClient>;
export type { SignedWebhook };
