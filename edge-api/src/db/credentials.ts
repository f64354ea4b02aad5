import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

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
