import { describe, expect, it } from 'vitest';
import type { Logger } from './lib/logger.ts';
import { receiptsFor } from './operations/receipts.ts';
import type { OrderRow } from './db/schema.ts';
import { emailFor, parseSender, sendEmailMailer, workerMailer, type EmailBuilderMessage, type SendEmailBinding } from './worker-mail.ts';
import { parseWorkerEnv } from './worker-env.ts';

// The Worker's mailer (decision 247): the message it hands Cloudflare's send_email binding. The binding here
// records what it is given: it stands for Cloudflare's interface, not for anything of ours.
const recordingBinding = () => {
  const sent: EmailBuilderMessage[] = [];
  const binding: SendEmailBinding = {
    send: async (message) => {
      sent.push(structuredClone(message));
      return { messageId: `<${sent.length}@test>` };
    },
  };
  return { binding, sent };
};

const silent = () => {
  const lines: string[] = [];
  const logger: Logger = { info: (line) => void lines.push(line), warn: () => {}, error: () => {} };
  return { logger, lines };
};

describe('the Worker mailer (send_email binding)', () => {
  it('reads MAIL_FROM as an address or `Name <address>`, and refuses anything else', () => {
    expect(parseSender('no-reply@shop.example')).toBe('no-reply@shop.example');
    expect(parseSender(' Storefront <no-reply@shop.example> ')).toEqual({ email: 'no-reply@shop.example', name: 'Storefront' });
    expect(parseSender('"The Shop" <shop@shop.example>')).toEqual({ email: 'shop@shop.example', name: 'The Shop' });
    expect(parseSender('<bare@shop.example>')).toBe('bare@shop.example');
    for (const bad of ['', 'no-reply', 'Storefront <no-reply>', 'a@b.example, c@d.example', 'Name <a@b.example> trailing'])
      expect(parseSender(bad), bad).toBeUndefined();
  });

  it('builds a receipt as one plain-text message to the customer: recipient, subject and text as the Node mailer sends them', async () => {
    const before = { id: '00000000-0000-4000-8000-0000abcd1234', title: 'Proxy 1', price: '5', user_name: 'Rahim', user_email: 'rahim@example.test' };
    const order = { ...before, payment_status: 'unpaid', wise_email: null, delivery_kind: null } as unknown as OrderRow;
    const paid = { ...order, payment_status: 'paid' } as OrderRow;
    const [receipt] = receiptsFor(order, paid, 'https://shop.example/');
    const { binding, sent } = recordingBinding();
    await sendEmailMailer(binding, { email: 'no-reply@shop.example', name: 'Storefront' }).send(receipt!);
    expect(sent).toEqual([
      {
        from: { email: 'no-reply@shop.example', name: 'Storefront' },
        to: 'rahim@example.test',
        subject: 'Payment received for order #abcd1234 (Proxy 1)',
        text: receipt!.text,
      },
    ]);
    expect(sent[0]!.text).toContain('Your order: https://shop.example/my-orders');
    // Only these four fields: no html, no headers, no link field beside the text.
    expect(Object.keys(sent[0]!).sort()).toEqual(['from', 'subject', 'text', 'to']);
  });

  it('passes a refusal of the binding on, so the outbox sender logs it', async () => {
    const refusing: SendEmailBinding = { send: async () => Promise.reject(new Error('email from x not allowed')) };
    const message = emailFor({ to: 'a@b.example', subject: 'S', text: 'T', link: 'https://x' }, 'x@shop.example');
    expect(message).toEqual({ from: 'x@shop.example', to: 'a@b.example', subject: 'S', text: 'T' });
    await expect(sendEmailMailer(refusing, 'x@shop.example').send({ to: 'a@b.example', subject: 'S', text: 'T', link: 'https://x' })).rejects.toThrow(
      'not allowed',
    );
  });

  it('is there only with the binding, and says once which way the mail goes', () => {
    const without = silent();
    expect(workerMailer({}, without.logger)).toBeUndefined();
    expect(without.lines).toEqual(['worker: no send_email binding named EMAIL: receipts and ticket answers are not mailed (decision 247)']);
    const withBinding = silent();
    expect(workerMailer({ EMAIL: recordingBinding().binding, MAIL_FROM: 'no-reply@shop.example' }, withBinding.logger)).toBeDefined();
    expect(withBinding.lines).toEqual(['worker: receipts and ticket answers are mailed through the send_email binding EMAIL, from no-reply@shop.example']);
  });
});

describe('the Worker environment with the send_email binding', () => {
  const base = {
    HYPERDRIVE: { connectionString: 'postgres://x@127.0.0.1/x' },
    ASSETS: { fetch: async () => new Response() },
    SUPABASE_URL: 'https://abcd.supabase.co',
    SUPABASE_ANON_KEY: 'anon',
    SUPABASE_SERVICE_ROLE_KEY: 'service',
    CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64'),
    BLIND_INDEX_KEY: Buffer.alloc(32, 2).toString('base64'),
  };

  it('takes the binding with MAIL_FROM, and names MAIL_FROM when it is missing or not an address', () => {
    const { binding } = recordingBinding();
    const good = parseWorkerEnv({ ...base, EMAIL: binding, MAIL_FROM: 'Storefront <no-reply@shop.example>' });
    expect(good.ok && good.env.MAIL_FROM).toEqual({ email: 'no-reply@shop.example', name: 'Storefront' });
    expect(good.ok && good.env.EMAIL).toBe(binding);
    const missing = parseWorkerEnv({ ...base, EMAIL: binding });
    expect(missing.ok ? [] : missing.problems.map((problem) => problem.path)).toEqual(['MAIL_FROM']);
    const wrong = parseWorkerEnv({ ...base, EMAIL: binding, MAIL_FROM: 'no-reply' });
    expect(wrong.ok ? [] : wrong.problems.map((problem) => problem.path)).toEqual(['MAIL_FROM']);
    const notABinding = parseWorkerEnv({ ...base, EMAIL: 'on', MAIL_FROM: 'no-reply@shop.example' });
    expect(notABinding.ok ? [] : notABinding.problems.map((problem) => problem.path)).toEqual(['EMAIL']);
  });

  it('without the binding, as before: no mail, and MAIL_FROM alone changes nothing', () => {
    const none = parseWorkerEnv(base);
    expect(none.ok && none.env.EMAIL).toBeUndefined();
    const fromOnly = parseWorkerEnv({ ...base, MAIL_FROM: 'no-reply@shop.example' });
    expect(fromOnly.ok && fromOnly.env.EMAIL).toBeUndefined();
  });
});
