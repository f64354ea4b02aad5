import { asRecord, asText, hmacSha512Hex, RailError, railCall, randomLetters } from './rail-http.ts';

export interface BinancePayAccount {
  apiUrl: string;
  apiKey: string;
  secretKey: string;
}

/**
 * One signed call to the Binance Pay merchant API: headers BinancePay-Timestamp, -Nonce (32 letters),
 * -Certificate-SN (the API key) and -Signature, the upper-case hex HMAC-SHA512 under the secret key of
 * `timestamp + "\n" + nonce + "\n" + body + "\n"`. An answer whose `status` is not SUCCESS is an error.
 */
export async function binancePayCall(account: BinancePayAccount, path: string, payload: Record<string, unknown>): Promise<unknown> {
  const body = JSON.stringify(payload);
  const timestamp = String(Date.now());
  const nonce = randomLetters(32);
  const signature = await hmacSha512Hex(account.secretKey, `${timestamp}\n${nonce}\n${body}\n`);
  const { status, json } = await railCall('Binance Pay', `${account.apiUrl.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    body,
    headers: { 'BinancePay-Timestamp': timestamp, 'BinancePay-Nonce': nonce, 'BinancePay-Certificate-SN': account.apiKey, 'BinancePay-Signature': signature },
  });
  const answer = asRecord(json);
  if (status !== 200 || answer.status !== 'SUCCESS') {
    throw new RailError('Binance Pay', `${asText(answer.code) || status} ${asText(answer.errorMessage)}`.trim(), asText(answer.code));
  }
  return answer.data;
}

export interface BinanceOrderRequest {
  merchantTradeNo: string;
  amount: string;
  currency: string;
  description: string;
  expiresAt: Date;
  webhookUrl: string;
  returnUrl: string;
}

/** Create Order (v3): the checkout page and QR content the customer pays with. */
export async function createBinanceOrder(account: BinancePayAccount, order: BinanceOrderRequest) {
  const data = asRecord(
    await binancePayCall(account, '/binancepay/openapi/v3/order', {
      env: { terminalType: 'WEB' },
      merchantTradeNo: order.merchantTradeNo,
      orderAmount: order.amount,
      currency: order.currency,
      description: order.description.slice(0, 256),
      goodsDetails: [{ goodsType: '02', goodsCategory: 'Z000', referenceGoodsId: order.merchantTradeNo, goodsName: order.description.slice(0, 256) }],
      orderExpireTime: order.expiresAt.getTime(),
      webhookUrl: order.webhookUrl,
      returnUrl: order.returnUrl,
      cancelUrl: order.returnUrl,
    }),
  );
  const prepayId = asText(data.prepayId);
  if (!prepayId) throw new RailError('Binance Pay', 'created an order without a prepayId');
  return { prepayId, checkoutUrl: asText(data.checkoutUrl), qrContent: asText(data.qrContent) || asText(data.universalUrl) || asText(data.checkoutUrl) };
}

/** Query Order (v2): INITIAL, PENDING, PAID, CANCELED, ERROR, REFUNDING, REFUNDED, FULL_REFUNDED or EXPIRED. */
export async function queryBinanceOrder(account: BinancePayAccount, prepayId: string) {
  const data = asRecord(await binancePayCall(account, '/binancepay/openapi/v2/order/query', { prepayId }));
  return {
    status: asText(data.status),
    amount: asText(data.orderAmount),
    currency: asText(data.currency),
    transactionId: asText(data.transactionId),
    merchantTradeNo: asText(data.merchantTradeNo),
  };
}

/** Close Order: a payment window that ended is closed at Binance too, so it cannot be paid later. */
export async function closeBinanceOrder(account: BinancePayAccount, prepayId: string): Promise<void> {
  await binancePayCall(account, '/binancepay/openapi/order/close', { prepayId });
}
