import type { Logger } from './lib/logger.ts';
import type { ReceiptMail, ReceiptMailer } from './operations/receipts.ts';

/**
 * A sender as Cloudflare's builder takes it: the bare address, or the address with a display name
 * (MAIL_FROM: `no-reply@shop.example` or `Storefront <no-reply@shop.example>`, as on Node).
 */
export type EmailSender = string | { email: string; name: string };

/**
 * The message the `send_email` binding takes in its structured form (Cloudflare Email Service, the form its
 * docs recommend): the platform writes the MIME itself, so the Worker carries no MIME library (decision 247).
 */
export interface EmailBuilderMessage {
  from: EmailSender;
  to: string;
  subject: string;
  text: string;
}

/** The part of Cloudflare's `send_email` binding the shop uses (`env.EMAIL.send(...)`). */
export interface SendEmailBinding {
  send(message: EmailBuilderMessage): Promise<unknown>;
}

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
const NAMED = /^\s*"?([^"<>]*?)"?\s*<([^<>\s]+)>\s*$/;

/** MAIL_FROM read as a sender, or undefined when it is neither an address nor `Name <address>`. */
export function parseSender(from: string): EmailSender | undefined {
  const trimmed = from.trim();
  if (ADDRESS.test(trimmed)) return trimmed;
  const named = NAMED.exec(trimmed);
  if (!named || !ADDRESS.test(named[2]!)) return undefined;
  const name = named[1]!.trim();
  return name ? { email: named[2]!, name } : named[2]!;
}

/**
 * One message of the shop's mail (a receipt, a ticket answer) as the binding takes it: plain text, one
 * recipient, nothing else. The link is already in the text; no header carries anything more.
 */
export function emailFor(message: ReceiptMail, from: EmailSender): EmailBuilderMessage {
  return { from, to: message.to, subject: message.subject, text: message.text };
}

/**
 * The Worker's mailer (decision 247): every message through the `send_email` binding. A refusal throws,
 * and the outbox's sender logs it (subject and reason, never the text or the link).
 */
export function sendEmailMailer(binding: SendEmailBinding, from: EmailSender): ReceiptMailer {
  return {
    async send(message) {
      await binding.send(emailFor(message, from));
    },
  };
}

/** The isolate's mailer when the binding is configured; without it no mail is sent (as before), and the log says so once. */
export function workerMailer(env: { EMAIL?: SendEmailBinding; MAIL_FROM?: EmailSender }, logger: Logger): ReceiptMailer | undefined {
  if (!env.EMAIL || !env.MAIL_FROM) {
    logger.info('worker: no send_email binding named EMAIL: receipts and ticket answers are not mailed (decision 247)');
    return undefined;
  }
  const from = typeof env.MAIL_FROM === 'string' ? env.MAIL_FROM : env.MAIL_FROM.email;
  logger.info(`worker: receipts and ticket answers are mailed through the send_email binding EMAIL, from ${from}`);
  return sendEmailMailer(env.EMAIL, env.MAIL_FROM);
}
