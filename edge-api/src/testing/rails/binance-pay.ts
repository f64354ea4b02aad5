import { createHash, createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { Hono, type Context } from 'hono';

/**
 * Binance Pay's merchant API as its documentation describes it (developers.binance.com, "Binance Pay":
 * API Common, Create Order v3, Query Order v2, Close Order, Webhook Common, Query Certificate, Order and
 * Refund Notification). Requests carry BinancePay-Timestamp, -Nonce (32 characters), -Certificate-SN (the
 * API key) and -Signature: the upper-case hex HMAC-SHA512, under the secret key, of
 * `timestamp\nnonce\nbody\n`; a bad one is refused. Answers are {status: SUCCESS|FAIL, code, data,
 * errorMessage}. Notifications go to the order's webhookUrl signed with this stand-in's RSA key: base64
 * SHA256withRSA over `timestamp\nnonce\nbody\n`, the key's serial (an MD5 of it) in -Certificate-SN, the
 * public key served by the certificate query.
 */
export interface StandInBinanceOrder {
  prepayId: string;
  merchantTradeNo: string;
  amount: string;
  currency: string;
  status: 'INITIAL' | 'PAID' | 'CANCELED' | 'EXPIRED' | 'REFUNDED';
  webhookUrl: string;
  transactionId?: string;
  createTime: number;
}

export const BINANCE_TEST_ACCOUNT = { apiKey: 'binance-stand-in-api-key', secretKey: 'binance-stand-in-secret-key' };

export interface SignedWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function binancePayStandIn(account = BINANCE_TEST_ACCOUNT) {
  const orders = new Map<string, StandInBinanceOrder>();
  const counts = { requests: 0 };
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certPublic = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const certSerial = createHash('md5').update(certPublic).digest('hex');
  const ok = (c: Context, data: unknown) => c.json({ status: 'SUCCESS', code: '000000', data });
  const fail = (c: Context, code: string, errorMessage: string, status: 400 | 404 = 400) => c.json({ status: 'FAIL', code, errorMessage }, status);

  const app = new Hono();
  app.use('/binancepay/*', async (c, next) => {
    counts.requests += 1;
    const body = await c.req.text();
    const [timestamp, nonce, serial, signature] = ['binancepay-timestamp', 'binancepay-nonce', 'binancepay-certificate-sn', 'binancepay-signature'].map((h) =>
      c.req.header(h),
    );
    if (serial !== account.apiKey) return fail(c, '400002', 'Invalid API key.');
    const expected = createHmac('sha512', account.secretKey).update(`${timestamp}\n${nonce}\n${body}\n`).digest('hex').toUpperCase();
    if (!timestamp || nonce?.length !== 32 || signature !== expected) return fail(c, '400002', 'Signature for this request is not valid.');
    return next();
  });
  const find = (body: { prepayId?: string; merchantTradeNo?: string }) =>
    body.prepayId ? orders.get(body.prepayId) : [...orders.values()].find((o) => o.merchantTradeNo === body.merchantTradeNo);
  app.post('/binancepay/openapi/v3/order', async (c) => {
    const body = await c.req.json<{
      merchantTradeNo?: string;
      orderAmount?: string;
      currency?: string;
      webhookUrl?: string;
      env?: { terminalType?: string };
      goodsDetails?: unknown[];
      description?: string;
    }>();
    if (!body.env?.terminalType || !body.description || !Array.isArray(body.goodsDetails))
      return fail(c, '400001', 'Mandatory parameter missing: env, description or goodsDetails.');
    if (!body.merchantTradeNo || !/^[A-Za-z0-9]{1,32}$/.test(body.merchantTradeNo) || find(body))
      return fail(c, '400201', 'merchantTradeNo is invalid or duplicated.');
    if (!body.orderAmount || !(Number(body.orderAmount) >= 0.00000001) || !body.currency) return fail(c, '400001', 'orderAmount or currency is invalid.');
    const prepayId = BigInt.asUintN(63, BigInt(`0x${randomBytes(8).toString('hex')}`))
      .toString()
      .padStart(19, '1')
      .slice(0, 19);
    const order: StandInBinanceOrder = {
      prepayId,
      merchantTradeNo: body.merchantTradeNo,
      amount: body.orderAmount,
      currency: body.currency,
      status: 'INITIAL',
      webhookUrl: body.webhookUrl ?? '',
      createTime: Date.now(),
    };
    orders.set(prepayId, order);
    const checkoutUrl = `${new URL(c.req.url).origin}/binance/checkout/${prepayId}`;
    return ok(c, {
      prepayId,
      terminalType: body.env.terminalType,
      expireTime: Date.now() + 3_600_000,
      qrcodeLink: `${checkoutUrl}/qr.png`,
      qrContent: checkoutUrl,
      checkoutUrl,
      deeplink: `bnc://app.binance.com/payment/secpay?tempToken=${prepayId}`,
      universalUrl: checkoutUrl,
      currency: order.currency,
      totalFee: order.amount,
    });
  });
  app.post('/binancepay/openapi/v2/order/query', async (c) => {
    const order = find(await c.req.json());
    if (!order) return fail(c, '400202', 'Order not found.');
    return ok(c, {
      merchantId: 1,
      prepayId: order.prepayId,
      transactionId: order.transactionId,
      merchantTradeNo: order.merchantTradeNo,
      status: order.status,
      currency: order.currency,
      orderAmount: order.amount,
      openUserId: 'standinpayer',
      transactTime: order.transactionId ? Date.now() : undefined,
      createTime: order.createTime,
    });
  });
  app.post('/binancepay/openapi/order/close', async (c) => {
    const order = find(await c.req.json());
    if (!order) return fail(c, '400202', 'Order not found.');
    if (order.status === 'PAID') return fail(c, '400203', 'Order status is not valid to close.');
    order.status = 'CANCELED';
    return ok(c, true);
  });
  app.post('/binancepay/openapi/certificates', (c) => ok(c, [{ certSerial, certPublic }]));

  /** A notification as Binance sends it: bizId a bare (long) number in the body, data a JSON string. */
  const notification = (order: StandInBinanceOrder, bizType: string, bizStatus: string): SignedWebhook => {
    const data = JSON.stringify({
      merchantTradeNo: order.merchantTradeNo,
      productType: '02',
      productName: 'Order',
      transactTime: Date.now(),
      tradeType: 'WEB',
      totalFee: order.amount,
      currency: order.currency,
      transactionId: order.transactionId,
      openUserId: 'standinpayer',
    });
    const body = `{"bizType":${JSON.stringify(bizType)},"bizId":${order.prepayId},"bizIdStr":${JSON.stringify(order.prepayId)},"bizStatus":${JSON.stringify(bizStatus)},"data":${JSON.stringify(data)}}`;
    const timestamp = String(Date.now());
    const nonce = randomBytes(16).toString('hex');
    const signature = sign('sha256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`), privateKey).toString('base64');
    return {
      url: order.webhookUrl,
      body,
      headers: {
        'content-type': 'application/json',
        'BinancePay-Timestamp': timestamp,
        'BinancePay-Nonce': nonce,
        'BinancePay-Signature': signature,
        'BinancePay-Certificate-SN': certSerial,
      },
    };
  };
  const orderOf = (ref: { prepayId?: string; merchantTradeNo?: string }) => {
    const order = find(ref);
    if (!order) throw new Error('no such Binance Pay order in the stand-in');
    return order;
  };
  /** The customer pays: the order is PAID, and its PAY_SUCCESS notification is answered (not yet sent). */
  const pay = (ref: { prepayId?: string; merchantTradeNo?: string }) => {
    const order = orderOf(ref);
    order.status = 'PAID';
    order.transactionId ??= `M${randomBytes(8).toString('hex').toUpperCase()}`;
    return notification(order, 'PAY', 'PAY_SUCCESS');
  };
  const refund = (ref: { prepayId?: string }) => {
    const order = orderOf(ref);
    order.status = 'REFUNDED';
    return notification(order, 'PAY_REFUND', 'REFUND_SUCCESS');
  };
  const closed = (ref: { prepayId?: string }) => notification(orderOf(ref), 'PAY', 'PAY_CLOSED');
  return { app, orders, counts, pay, refund, closed, certSerial };
}
