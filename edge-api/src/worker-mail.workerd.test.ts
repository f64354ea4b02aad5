import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, remoteApi, type ApiHarness, type TestUser } from './testing/api-harness.ts';
import { startWorker, type RunningWorker } from './testing/workerd.ts';

// The Worker's mail (decision 247) through Cloudflare's real send_email binding as wrangler dev hosts it
// locally (miniflare): a worker of its own with `[[send_email]] name = "EMAIL"` added to a copy of
// wrangler.toml, on the suite's database and auth stand-in. Miniflare prints each message it takes
// ("send_email binding called with MessageBuilder:", From/To/Subject) and keeps its text in a file named
// there: that is what these tests read. Run by `npm run test:workers`.
if (!remoteApi) throw new Error('worker-mail.workerd.test.ts runs against a worker under workerd: npm run test:workers');
const target = remoteApi;
const SENDER = 'no-reply@shop.example';
const SITE = 'https://shop.example';

interface SentMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

// eslint-disable-next-line no-control-regex
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, '');

/** Every message the local binding took, in order: its header lines from the log, its text from the file named there. */
async function sentMails(worker: RunningWorker): Promise<SentMail[]> {
  const blocks = plain(worker.output()).split('send_email binding called with MessageBuilder:').slice(1);
  return Promise.all(
    blocks.map(async (block) => {
      const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1]?.trim() ?? '';
      return { from: field('From'), to: field('To'), subject: field('Subject'), text: await readFile(field('Text'), 'utf8') };
    }),
  );
}

/**
 * The messages to `to`, once `count` of them have arrived: the binding logs each a moment after it took it
 * (through wrangler's own process, which on a loaded machine can take seconds).
 */
async function mailsTo(worker: RunningWorker, to: string, count: number): Promise<SentMail[]> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const mails = (await sentMails(worker)).filter((mail) => mail.to.includes(to));
    if (mails.length >= count) return mails;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await sentMails(worker)).filter((mail) => mail.to.includes(to));
}

let api: ApiHarness;
let mailing: RunningWorker;
/** What the mailing worker printed last: a failure shows whether a message was refused, lost or late. */
const lastOutput = () => `the mailing worker printed, last:\n${plain(mailing.output()).slice(-3000)}`;

/** A call to the worker with the binding, as `user`. */
async function callMailing(method: string, path: string, user: TestUser, json?: unknown): Promise<{ status: number; body: { id?: string } }> {
  const response = await fetch(`${mailing.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${user.token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as { id?: string } };
}

/** The secrets a message must never hold: the worker's keys, the callers' tokens, a delivered password. */
function expectNoSecret(mail: SentMail, secrets: string[]) {
  for (const secret of secrets) {
    expect(mail.text).not.toContain(secret);
    expect(mail.subject).not.toContain(secret);
  }
}

beforeAll(async () => {
  api = await createApiHarness();
  const rails = process.env.TEST_PAYMENT_STAND_INS_URL!;
  mailing = await startWorker({
    hyperdriveUrl: process.env.TEST_API_HYPERDRIVE_URL!,
    vars: {
      SUPABASE_URL: target.supabaseUrl,
      SUPABASE_ANON_KEY: target.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: target.serviceRoleKey,
      CREDENTIALS_KEY: target.credentialsKey,
      BLIND_INDEX_KEY: target.blindIndexKey,
      MAIL_FROM: `Storefront <${SENDER}>`,
      SITE_URL: SITE,
      TRON_API_URL: `${rails}/trongrid`,
      BINANCE_PAY_API_URL: `${rails}/binance`,
      BKASH_API_URL: `${rails}/bkash`,
    },
    addToConfig: `[[send_email]]\nname = "EMAIL"\nallowed_sender_addresses = ["${SENDER}"]`,
  });
});
afterAll(async () => {
  await mailing?.stop();
  await api?.close();
});

describe('the Worker mail through the send_email binding (decision 247)', () => {
  it("mails a staff answer to the ticket's customer: one message, the answer and the ticket's link, no secret", async () => {
    const customer = await api.createUser('user', 'mailed');
    const moderator = await api.createUser('moderator');
    const subject = `Where is my order ${crypto.randomUUID().slice(0, 6)}?`;
    const opened = await callMailing('POST', '/api/tickets', customer, {
      id: crypto.randomUUID(),
      messageId: crypto.randomUUID(),
      subject,
      body: 'Not here yet',
    });
    expect(opened.status).toBe(200);
    expect(await mailsTo(mailing, customer.email, 0)).toEqual([]);
    const answer = `It left the warehouse ${crypto.randomUUID().slice(0, 6)}.`;
    expect((await callMailing('POST', `/api/tickets/${opened.body.id}/messages`, moderator, { id: crypto.randomUUID(), body: answer })).status).toBe(200);

    const mails = await mailsTo(mailing, customer.email, 1);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.from).toContain(SENDER);
    expect(mail!.to).toBe(customer.email);
    expect(mail!.subject).toBe(`Reply to your support ticket: ${subject}`);
    expect(mail!.text).toContain(answer);
    expect(mail!.text).toContain(`${SITE}/support#ticket-${opened.body.id}`);
    expectNoSecret(mail!, [customer.token, moderator.token, target.serviceRoleKey, target.anonKey, target.credentialsKey, target.blindIndexKey]);
    expect(plain(mailing.output())).toContain(`mailed through the send_email binding EMAIL, from ${SENDER}`);
  });

  it('mails a receipt when staff mark an order paid and another when they deliver it, sent by the cron round, with no password in them', async () => {
    const customer = await api.createUser('user', 'receipt');
    const admin = await api.createUser('admin');
    const [orderId] = await api.insertOrders(customer, 1);
    const name = `#${orderId!.slice(-8)} (Proxy 0)`;
    expect((await callMailing('PUT', `/api/admin/orders/${orderId}`, admin, { paymentStatus: 'paid' })).status).toBe(200);
    // Receipts go out after commit on the next payment round: the Worker's cron trigger, run here by hand.
    const runCron = async () => expect((await fetch(`${mailing.url}/cdn-cgi/handler/scheduled`)).status).toBe(200);
    await runCron();
    const paid = await mailsTo(mailing, customer.email, 1);
    expect(paid, lastOutput()).toHaveLength(1);
    expect(paid[0]).toMatchObject({ to: customer.email, subject: `Payment received for order ${name}` });
    expect(paid[0]!.text).toContain(`We received your payment for order ${name}, price 5.`);
    expect(paid[0]!.text).toContain(`${SITE}/my-orders#order-${orderId}`);

    const password = `Pw-${crypto.randomUUID()}`;
    const delivery = { orderStatus: 'delivered', wiseEmail: 'mailed.account@wise.test', wisePassword: password };
    expect((await callMailing('PUT', `/api/admin/orders/${orderId}`, admin, delivery)).status).toBe(200);
    await runCron();
    const both = await mailsTo(mailing, customer.email, 2);
    expect(both, lastOutput()).toHaveLength(2);
    expect(both[1]).toMatchObject({ to: customer.email, subject: `Order ${name} is delivered` });
    expect(both[1]!.text).toContain('this message never contains a password');
    for (const mail of both) expectNoSecret(mail, [password, customer.token, admin.token, target.serviceRoleKey, target.credentialsKey, target.blindIndexKey]);
  });

  it('without the binding (the suite worker), a staff answer writes no email, as before', async () => {
    const customer = await api.createUser('user', 'unmailed');
    const moderator = await api.createUser('moderator');
    const opened = await api.call<{ id: string }>('POST', '/api/tickets', {
      user: customer,
      json: { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: 'No mail here', body: 'Hello' },
    });
    expect(opened.status).toBe(200);
    const answered = await api.call('POST', `/api/tickets/${opened.body.id}/messages`, {
      user: moderator,
      json: { id: crypto.randomUUID(), body: 'Answered' },
    });
    expect(answered.status).toBe(200);
    expect(await api.db.selectFrom('mail_outbox').select('id').where('to_address', '=', customer.email).execute()).toEqual([]);
    expect(await mailsTo(mailing, customer.email, 0)).toEqual([]);
  });
});
