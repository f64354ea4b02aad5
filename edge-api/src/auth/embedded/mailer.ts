import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../lib/logger.ts';

/** One message of the embedded auth: a plain-text mail, most carrying one link. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the message exists for, if any (in the message's text; never in a log line). */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const DEFAULT_MAIL_FROM = 'Storefront <no-reply@localhost>';

/**
 * SMTP_URL set: every message goes out through that server (nodemailer, loaded only then), e.g.
 * `smtps://user:pass@smtp.example.com:465` or `smtp://localhost:1025` (decision 057).
 */
export async function smtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/**
 * No SMTP_URL: each message is kept as a file in `dir` (DATA_DIR/mailbox, owner-only), readable by whoever
 * runs the shop and by nobody over the network, the way Supabase's local stack hands its mail to a catcher
 * (decision 057); the console names the file, never the link (decision 113).
 */
export async function mailboxMailer(dir: string, { logger, from = DEFAULT_MAIL_FROM }: { logger: Logger; from?: string }): Promise<Mailer> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  return {
    async send(message) {
      const sentAt = new Date();
      const name = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = join(dir, name);
      const headers = [
        `From: ${from}`,
        `To: ${message.to}`,
        `Subject: ${message.subject}`,
        `Date: ${sentAt.toUTCString()}`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 8bit',
      ];
      await writeFile(file, `${headers.join('\r\n')}\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}\r\n`, { mode: 0o600 });
      // The file, never the link: whoever reads the logs must not be able to reset a password (decision 113).
      logger.info(`Mail kept in ${file} (no SMTP_URL set): ${message.subject}`);
    },
  };
}

/** A message read back from the local mailbox. */
export interface StoredMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** The messages in a local mailbox, oldest first (file names start with the time they were kept). */
export async function readMailbox(dir: string): Promise<StoredMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const raw = await readFile(file, 'utf8');
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, split);
      const header = (field: string) => head.match(new RegExp(`^${field}: (.*)$`, 'mi'))?.[1]?.trim() ?? '';
      return { file, to: header('To'), subject: header('Subject'), text: raw.slice(split + 4).replace(/\r\n/g, '\n') };
    }),
  );
}
