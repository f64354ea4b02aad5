import { sql } from 'kysely';
import type { DuplicatePlace, StockDuplicateCheck } from '../contract/wise-stocks.ts';
import type { Db } from './handle.ts';

export interface CredentialsProbe {
  emailIndex?: string;
  passwordIndex?: string;
  excludeOrderId?: string;
}

/** Duplicate check over paid, live orders that hold credentials, through the blind indexes only. */
export async function checkCredentials(db: Db, probe: CredentialsProbe) {
  const { emailIndex, passwordIndex, excludeOrderId } = probe;
  const base = db
    .selectFrom('orders')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('payment_status', '=', 'paid')
    .where('wise_email', 'is not', null)
    .$if(excludeOrderId !== undefined, (qb) => qb.where('id', '<>', excludeOrderId!))
    .limit(1);
  const [email, password, both] = await Promise.all([
    emailIndex ? base.where('wise_email_index', '=', emailIndex).executeTakeFirst() : undefined,
    passwordIndex ? base.where('wise_password_index', '=', passwordIndex).executeTakeFirst() : undefined,
    emailIndex && passwordIndex
      ? base.where('wise_email_index', '=', emailIndex).where('wise_password_index', '=', passwordIndex).executeTakeFirst()
      : undefined,
  ]);
  return { exactMatch: both !== undefined, emailExists: email !== undefined, passwordExists: password !== undefined };
}

/** One set of credentials as the duplicate checks see it: the email in lower case, its blind index, and the password's. */
export interface CredentialsKeys {
  email?: string;
  emailIndex?: string;
  passwordIndex?: string;
}

/** What is known of some credentials, in stock and among delivered orders. */
export interface KnownCredentials {
  stockEmails: Set<string>;
  stockPasswords: Set<string>;
  stockPairs: Set<string>;
  orderEmails: Set<string>;
  orderPasswords: Set<string>;
  orderPairs: Set<string>;
}

export const pairKey = (email: string, passwordIndex: string) => `${email}\n${passwordIndex}`;

const CHUNK = 5000;

/**
 * Which of these credentials are already in live stock (email case aside, password by blind index) or
 * delivered to a paid, live order (both by blind index): one query per table per 5,000 keys, never a decryption.
 */
export async function findKnownCredentials(db: Db, keys: CredentialsKeys[]): Promise<KnownCredentials> {
  const known: KnownCredentials = {
    stockEmails: new Set(),
    stockPasswords: new Set(),
    stockPairs: new Set(),
    orderEmails: new Set(),
    orderPasswords: new Set(),
    orderPairs: new Set(),
  };
  const emails = [...new Set(keys.flatMap((key) => (key.email ? [key.email] : [])))];
  const emailIndexes = [...new Set(keys.flatMap((key) => (key.emailIndex ? [key.emailIndex] : [])))];
  const passwordIndexes = [...new Set(keys.flatMap((key) => (key.passwordIndex ? [key.passwordIndex] : [])))];
  const size = Math.max(emails.length, emailIndexes.length, passwordIndexes.length);
  for (let start = 0; start < size; start += CHUNK) {
    const someEmails = emails.slice(start, start + CHUNK);
    const someEmailIndexes = emailIndexes.slice(start, start + CHUNK);
    const somePasswords = passwordIndexes.slice(start, start + CHUNK);
    const [stock, orders, serviceStock] = await Promise.all([
      db
        .selectFrom('wise_stocks')
        .select([sql<string>`lower(wise_email)`.as('email'), 'wise_password_index'])
        .where('deleted_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb(sql`lower(wise_email)`, '=', sql<string>`any(${someEmails}::text[])`),
            eb('wise_password_index', '=', sql<string>`any(${somePasswords}::text[])`),
          ]),
        )
        .execute(),
      db
        .selectFrom('orders')
        .select(['wise_email_index', 'wise_password_index'])
        .where('deleted_at', 'is', null)
        .where('payment_status', '=', 'paid')
        .where('wise_email', 'is not', null)
        .where((eb) =>
          eb.or([
            eb('wise_email_index', '=', sql<string>`any(${someEmailIndexes}::text[])`),
            eb('wise_password_index', '=', sql<string>`any(${somePasswords}::text[])`),
          ]),
        )
        .execute(),
      // A service's own stock (decision 072): its accounts' emails in clear, every secret by blind index.
      db
        .selectFrom('service_stocks')
        .select([sql<string | null>`lower(email)`.as('email'), 'secret_indexes'])
        .where('deleted_at', 'is', null)
        .where((eb) =>
          eb.or([eb(sql`lower(email)`, '=', sql<string>`any(${someEmails}::text[])`), eb('secret_indexes', '&&', sql<string[]>`${somePasswords}::text[]`)]),
        )
        .execute(),
    ]);
    for (const row of serviceStock) {
      if (row.email) known.stockEmails.add(row.email);
      for (const index of row.secret_indexes) {
        known.stockPasswords.add(index);
        if (row.email) known.stockPairs.add(pairKey(row.email, index));
      }
    }
    for (const row of stock) {
      known.stockEmails.add(row.email);
      known.stockPasswords.add(row.wise_password_index);
      known.stockPairs.add(pairKey(row.email, row.wise_password_index));
    }
    for (const row of orders) {
      if (row.wise_email_index) known.orderEmails.add(row.wise_email_index);
      if (row.wise_password_index) known.orderPasswords.add(row.wise_password_index);
      if (row.wise_email_index && row.wise_password_index) known.orderPairs.add(pairKey(row.wise_email_index, row.wise_password_index));
    }
  }
  return known;
}

/** The duplicate check of one set of credentials against what findKnownCredentials found. */
export function duplicateCheck(known: KnownCredentials, key: CredentialsKeys): StockDuplicateCheck {
  const places = (inStock: boolean, inOrder: boolean): DuplicatePlace[] => [...(inStock ? ['stock' as const] : []), ...(inOrder ? ['order' as const] : [])];
  const { email, emailIndex, passwordIndex } = key;
  const emailIn = places(email !== undefined && known.stockEmails.has(email), emailIndex !== undefined && known.orderEmails.has(emailIndex));
  const passwordIn = places(
    passwordIndex !== undefined && known.stockPasswords.has(passwordIndex),
    passwordIndex !== undefined && known.orderPasswords.has(passwordIndex),
  );
  const exactIn = places(
    email !== undefined && passwordIndex !== undefined && known.stockPairs.has(pairKey(email, passwordIndex)),
    emailIndex !== undefined && passwordIndex !== undefined && known.orderPairs.has(pairKey(emailIndex, passwordIndex)),
  );
  return { exactMatch: exactIn.length > 0, emailExists: emailIn.length > 0, passwordExists: passwordIn.length > 0, exactIn, emailIn, passwordIn };
}

/** The keys the duplicate checks compare: the email trimmed and in lower case, as deliveries index it. */
export async function credentialsKeys(blindIndex: (value: string) => Promise<string>, email?: string, password?: string): Promise<CredentialsKeys> {
  const normalized = email?.trim().toLowerCase() || undefined;
  const [emailIndex, passwordIndex] = await Promise.all([normalized ? blindIndex(normalized) : undefined, password ? blindIndex(password) : undefined]);
  return { email: normalized, emailIndex, passwordIndex };
}
