import type { Transaction } from 'kysely';
import type { Database, OrderRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { orderPage } from './customer-push.ts';

/** A receipt: plain text, a link to the order, never a credential (issue 26, item 5). */
export interface ReceiptMail {
  to: string;
  subject: string;
  text: string;
  link: string;
}

/** Sends a receipt: the shop's mail (SMTP_URL, or the local mailbox); absent where the deployment has none. */
export interface ReceiptMailer {
  send(message: ReceiptMail): Promise<void>;
}

const delivered = (order: OrderRow) => order.wise_email !== null || order.delivery_kind !== null;

/** The receipts a change of `before` into `after` calls for: paid, delivered, or both at once. */
export function receiptsFor(before: OrderRow, after: OrderRow, siteUrl: string): ReceiptMail[] {
  const link = `${siteUrl.replace(/\/+$/, '')}${orderPage(after.id)}`;
  const name = `#${after.id.slice(-8)} (${after.title})`;
  const greeting = `Hello ${after.user_name || after.user_email},`;
  const mails: ReceiptMail[] = [];
  if (after.payment_status === 'paid' && before.payment_status !== 'paid') {
    mails.push({
      to: after.user_email,
      subject: `Payment received for order ${name}`,
      text: `${greeting}\n\nWe received your payment for order ${name}, price ${after.price}.\n${delivered(after) ? 'It is delivered too: see the next message.' : 'We will deliver it as soon as it is ready.'}\n\nYour order: ${link}\n`,
      link,
    });
  }
  if (delivered(after) && !delivered(before)) {
    mails.push({
      to: after.user_email,
      subject: `Order ${name} is delivered`,
      text: `${greeting}\n\nYour order ${name} is delivered. Open it in the shop to see what was delivered: for your safety this message never contains a password.\n\nYour order: ${link}\n`,
      link,
    });
  }
  return mails;
}

/** Writes the receipts into the mail outbox in the change's transaction: they exist exactly when it commits. */
export async function queueReceipts(trx: Transaction<Database>, deps: Pick<Deps, 'mailer' | 'config'>, before: OrderRow, after: OrderRow): Promise<void> {
  if (!deps.mailer) return;
  const mails = receiptsFor(before, after, deps.config.payments?.siteUrl ?? '');
  if (mails.length === 0) return;
  await trx
    .insertInto('mail_outbox')
    .values(mails.map((mail) => ({ id: crypto.randomUUID(), to_address: mail.to, subject: mail.subject, body: mail.text, link: mail.link })))
    .execute();
}

/**
 * Sends what the outbox holds, each message taken by one sender only (deleted as it is taken): a failed
 * send is logged with the recipient's order link, never retried, since the order itself shows everything.
 */
export async function sendWaitingMail(deps: Pick<Deps, 'db' | 'mailer' | 'logger'>): Promise<number> {
  if (!deps.mailer) return 0;
  let sent = 0;
  for (;;) {
    const taken = await deps.db
      .deleteFrom('mail_outbox')
      .where('id', 'in', (qb) => qb.selectFrom('mail_outbox').select('id').orderBy('created_at').limit(20).forUpdate().skipLocked())
      .returningAll()
      .execute();
    if (taken.length === 0) return sent;
    for (const row of taken) {
      try {
        await deps.mailer.send({ to: row.to_address, subject: row.subject, text: row.body, link: row.link });
        sent += 1;
      } catch (error) {
        deps.logger.warn('payments: a receipt could not be sent', { subject: row.subject, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
