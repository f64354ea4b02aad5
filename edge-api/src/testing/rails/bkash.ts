import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';

/**
 * bKash's tokenized checkout (v1.2.0-beta) as its developer portal describes it (developer.bka.sh:
 * Grant Token, Create Payment, Execute Payment, Query Payment; the sandbox answers it publishes): the grant
 * takes `username` and `password` headers and {app_key, app_secret}, answering id_token (1 hour); every
 * other call takes that token in Authorization (no "Bearer") and the app key in X-APP-Key. Create (mode
 * 0011) answers paymentID and bkashURL; the customer approves on bKash's page, which sends the browser to
 * callbackURL?paymentID=…&status=success|failure|cancel; only Execute then completes the payment
 * (transactionStatus Completed, a trxID), once. Errors come with HTTP 200 and a statusCode other than 0000.
 */
export interface StandInBkashPayment {
  paymentID: string;
  amount: string;
  invoice: string;
  callbackURL: string;
  /** Initiated until the customer approves (still Initiated to a query), Completed once executed. */
  state: 'Initiated' | 'Approved' | 'Completed' | 'Cancelled' | 'Failed';
  trxID?: string;
  createdAt: number;
}

export const BKASH_TEST_ACCOUNT = {
  appKey: 'bkash-stand-in-app-key',
  appSecret: 'bkash-stand-in-app-secret',
  username: 'sandboxTokenizedUser02',
  password: 'sandbox-stand-in-password',
};

export function bkashStandIn(account = BKASH_TEST_ACCOUNT) {
  const payments = new Map<string, StandInBkashPayment>();
  const tokens = new Set<string>();
  const counts = { requests: 0 };
  const error = (c: Context, statusCode: string, statusMessage: string) => c.json({ statusCode, statusMessage });
  const app = new Hono();
  app.post('/tokenized/checkout/token/grant', async (c) => {
    counts.requests += 1;
    const body = await c.req.json<{ app_key?: string; app_secret?: string }>();
    if (c.req.header('username') !== account.username || c.req.header('password') !== account.password)
      return error(c, '2079', 'Invalid username and password');
    if (body.app_key !== account.appKey || body.app_secret !== account.appSecret) return error(c, '2001', 'Invalid App Key');
    const idToken = randomBytes(24).toString('base64url');
    tokens.add(idToken);
    return c.json({
      statusCode: '0000',
      statusMessage: 'Successful',
      id_token: idToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: randomBytes(24).toString('base64url'),
    });
  });
  app.use('/tokenized/checkout/*', async (c, next) => {
    if (c.req.path.endsWith('/token/grant')) return next();
    counts.requests += 1;
    if (!tokens.has(c.req.header('authorization') ?? '') || c.req.header('x-app-key') !== account.appKey) return c.json({ message: 'Unauthorized' }, 401);
    return next();
  });
  app.post('/tokenized/checkout/create', async (c) => {
    const body = await c.req.json<Record<string, string>>();
    if (
      body.mode !== '0011' ||
      !body.callbackURL ||
      !body.payerReference ||
      body.currency !== 'BDT' ||
      body.intent !== 'sale' ||
      !/^\d+(\.\d{1,2})?$/.test(body.amount ?? '')
    )
      return error(c, '2065', 'Mandatory field missing');
    const paymentID = `TR0011${randomBytes(8).toString('hex').toUpperCase()}`;
    const payment: StandInBkashPayment = {
      paymentID,
      amount: body.amount!,
      invoice: body.merchantInvoiceNumber ?? '',
      callbackURL: body.callbackURL,
      state: 'Initiated',
      createdAt: Date.now(),
    };
    payments.set(paymentID, payment);
    const back = (status: string) => `${body.callbackURL}?paymentID=${paymentID}&status=${status}`;
    return c.json({
      statusCode: '0000',
      statusMessage: 'Successful',
      paymentID,
      bkashURL: `${new URL(c.req.url).origin}/bkash/checkout/${paymentID}`,
      callbackURL: body.callbackURL,
      successCallbackURL: back('success'),
      failureCallbackURL: back('failure'),
      cancelledCallbackURL: back('cancel'),
      amount: payment.amount,
      intent: 'sale',
      currency: 'BDT',
      paymentCreateTime: new Date().toISOString(),
      transactionStatus: 'Initiated',
      merchantInvoiceNumber: payment.invoice,
    });
  });
  const answer = (p: StandInBkashPayment) => ({
    statusCode: '0000',
    statusMessage: 'Successful',
    paymentID: p.paymentID,
    payerReference: '01770618575',
    customerMsisdn: '01770618575',
    trxID: p.trxID,
    amount: p.amount,
    transactionStatus: p.state === 'Approved' ? 'Initiated' : p.state,
    paymentExecuteTime: p.trxID ? new Date().toISOString() : undefined,
    currency: 'BDT',
    intent: 'sale',
    merchantInvoiceNumber: p.invoice,
  });
  app.post('/tokenized/checkout/execute', async (c) => {
    const p = payments.get((await c.req.json<{ paymentID?: string }>()).paymentID ?? '');
    if (!p) return error(c, '2056', 'Invalid Payment State');
    if (p.state === 'Completed') return error(c, '2062', 'The payment has already been completed');
    if (p.state !== 'Approved') return error(c, '2056', 'Invalid Payment State');
    p.state = 'Completed';
    p.trxID = randomBytes(5).toString('hex').toUpperCase();
    return c.json(answer(p));
  });
  app.post('/tokenized/checkout/payment/status', async (c) => {
    const p = payments.get((await c.req.json<{ paymentID?: string }>()).paymentID ?? '');
    return p ? c.json(answer(p)) : error(c, '2056', 'Invalid Payment State');
  });
  /** bKash's own page: approving sends the browser to the merchant's callback. */
  app.get('/checkout/:paymentID', (c) => {
    const p = payments.get(c.req.param('paymentID'));
    if (!p) return c.text('Unknown payment', 404);
    return c.html(
      `<!doctype html><html lang="en"><title>bKash</title><main><h1>bKash</h1><p>Pay ৳${p.amount} (invoice ${p.invoice})</p><a href="${p.paymentID}/approve">Pay with bKash</a> <a href="${p.paymentID}/cancel">Cancel</a></main></html>`,
    );
  });
  app.get('/checkout/:paymentID/:choice', (c) => {
    const p = payments.get(c.req.param('paymentID'));
    if (!p) return c.text('Unknown payment', 404);
    const approved = c.req.param('choice') === 'approve';
    if (approved && p.state === 'Initiated') p.state = 'Approved';
    return c.redirect(`${p.callbackURL}?paymentID=${p.paymentID}&status=${approved ? 'success' : 'cancel'}&signature=${randomBytes(8).toString('hex')}`);
  });
  /** The customer approves on bKash's page; answers where bKash would send the browser (a test may never go there). */
  const approve = (paymentID: string) => {
    const p = payments.get(paymentID);
    if (!p) throw new Error('no such bKash payment in the stand-in');
    if (p.state === 'Initiated') p.state = 'Approved';
    return `${p.callbackURL}?paymentID=${paymentID}&status=success&signature=${randomBytes(8).toString('hex')}`;
  };
  return { app, payments, counts, approve };
}
