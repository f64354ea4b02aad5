import { asRecord, asText, RailError, railCall } from './rail-http.ts';

export interface BkashAccount {
  apiUrl: string;
  appKey: string;
  appSecret: string;
  username: string;
  password: string;
}

/** Grant tokens per app key, kept until a minute before they expire (bKash asks merchants not to grant one per call). */
const tokens = new Map<string, { idToken: string; until: number }>();

async function grantToken(account: BkashAccount): Promise<string> {
  const cached = tokens.get(account.appKey);
  if (cached && cached.until > Date.now()) return cached.idToken;
  const { json } = await railCall('bKash', `${account.apiUrl.replace(/\/+$/, '')}/tokenized/checkout/token/grant`, {
    method: 'POST',
    headers: { username: account.username, password: account.password },
    body: JSON.stringify({ app_key: account.appKey, app_secret: account.appSecret }),
  });
  const answer = asRecord(json);
  const idToken = asText(answer.id_token);
  if (!idToken)
    throw new RailError(
      'bKash',
      `refused a token: ${asText(answer.statusCode)} ${asText(answer.statusMessage) || asText(answer.msg)}`.trim(),
      asText(answer.statusCode),
    );
  const seconds = Number(answer.expires_in) || 3600;
  tokens.set(account.appKey, { idToken, until: Date.now() + Math.max(0, seconds - 60) * 1000 });
  return idToken;
}

/** A call with the grant token (Authorization, as bKash sends it: the token alone) and X-APP-Key. */
async function bkashCall(account: BkashAccount, path: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
  const token = await grantToken(account);
  const { json } = await railCall('bKash', `${account.apiUrl.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    headers: { authorization: token, 'x-app-key': account.appKey },
    body: JSON.stringify(payload),
  });
  return asRecord(json);
}

/** bKash answers errors with HTTP 200 and a statusCode (or errorCode) other than 0000. */
function failure(answer: Record<string, unknown>): { code: string; message: string } | undefined {
  const code = asText(answer.statusCode) || asText(answer.errorCode);
  if (code === '0000') return undefined;
  return { code: code || 'unknown', message: asText(answer.statusMessage) || asText(answer.errorMessage) || 'no message' };
}

/** Create Payment (mode 0011, checkout URL without agreement): bKash's page the customer pays on. */
export async function createBkashPayment(account: BkashAccount, request: { amount: string; invoice: string; callbackUrl: string; payerReference: string }) {
  const answer = await bkashCall(account, '/tokenized/checkout/create', {
    mode: '0011',
    payerReference: request.payerReference,
    callbackURL: request.callbackUrl,
    amount: request.amount,
    currency: 'BDT',
    intent: 'sale',
    merchantInvoiceNumber: request.invoice,
  });
  const fault = failure(answer);
  if (fault) throw new RailError('bKash', `${fault.code} ${fault.message}`, fault.code);
  return { paymentId: asText(answer.paymentID), bkashUrl: asText(answer.bkashURL) };
}

export interface BkashPaymentState {
  /** Initiated, Completed, or another state bKash names; undefined when bKash answered an error. */
  transactionStatus?: string;
  trxId: string;
  amount: string;
  currency: string;
  error?: { code: string; message: string };
}

const stateOf = (answer: Record<string, unknown>): BkashPaymentState => {
  const fault = failure(answer);
  return {
    transactionStatus: fault ? undefined : asText(answer.transactionStatus),
    trxId: asText(answer.trxID),
    amount: asText(answer.amount),
    currency: asText(answer.currency),
    ...(fault && { error: fault }),
  };
};

/** Execute Payment: completes a payment the customer approved on bKash's page. */
export async function executeBkashPayment(account: BkashAccount, paymentId: string): Promise<BkashPaymentState> {
  return stateOf(await bkashCall(account, '/tokenized/checkout/execute', { paymentID: paymentId }));
}

/** Query Payment: where a payment stands, for a callback that never came or an execute whose answer was lost. */
export async function queryBkashPayment(account: BkashAccount, paymentId: string): Promise<BkashPaymentState> {
  return stateOf(await bkashCall(account, '/tokenized/checkout/payment/status', { paymentID: paymentId }));
}

/** Forgets the granted tokens (tests). */
export const forgetBkashTokens = () => tokens.clear();
