import { expect } from 'vitest';
import { readMailbox, type StoredMail } from '../auth/embedded/mailer.ts';
import type { AuthServer } from './auth-server.ts';

/** The mail an auth server under test kept for `address`, oldest first. */
export async function mailsTo(server: AuthServer, address: string): Promise<StoredMail[]> {
  return (await readMailbox(server.mailbox)).filter((mail) => mail.to === address);
}

/** Mail is sent after the answer (its timing must not tell who has an account): wait for the `count`th. */
export async function waitForMail(server: AuthServer, address: string, count = 1): Promise<StoredMail> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const mails = await mailsTo(server, address);
    if (mails.length >= count) return mails[count - 1]!;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail #${count} to ${address}`);
}

export const linkIn = (mail: StoredMail): URL => new URL(/(http\S+\/auth\/v1\/verify\S+)/.exec(mail.text)![1]!);

/** Opens a mailed link as a browser would, and reads the fragment of the page it is sent to. */
export async function openLink(link: URL): Promise<{ target: URL; fragment: URLSearchParams }> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const target = new URL(response.headers.get('location')!);
  return { target, fragment: new URLSearchParams(target.hash.slice(1)) };
}
