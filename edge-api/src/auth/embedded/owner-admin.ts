import type { Kysely, Transaction } from 'kysely';
import { checkNewPassword, normalizeEmail } from './auth-requests.ts';
import { setOwnerAccount } from './auth-store.ts';
import { recordAudit } from '../../db/audit.ts';
import type { Database } from '../../db/schema.ts';
import { nextVersion, writeTime } from '../../db/versions.ts';

export interface OwnerAdminResult {
  userId: string;
  email: string;
  account: 'created' | 'repaired';
  record: 'created' | 'promoted' | 'already admin' | 'restored';
}

/**
 * `npm run admin`: makes EMAIL an admin with PASSWORD on the embedded auth, in one transaction. A missing
 * account is created; an existing one (whoever made it) gets this password and a confirmed address and
 * loses every session, so a squatter on the owner's address is locked out. The user record is created,
 * promoted, or restored when it had been deleted. Throws a readable error for a bad email or password.
 */
export async function makeOwnerAdmin(db: Kysely<Database>, input: { email: string; password: string; name?: string; now?: Date }): Promise<OwnerAdminResult> {
  const email = normalizeEmail(input.email);
  const password = checkNewPassword(input.password, 'a password is required');
  const now = input.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const { user, created } = await setOwnerAccount(trx, { email, password, now });
    const account = created ? 'created' : 'repaired';
    const record = await recordOwnerAdmin(trx, { userId: user.id, email, name: input.name, account });
    return { userId: user.id, email, account, record };
  });
}

/**
 * Our side of `npm run admin`, whichever auth server holds the account: the user record of `userId` is
 * created, promoted, or restored when it had been deleted, and an audit row says so. Call in a transaction.
 */
export async function recordOwnerAdmin(
  trx: Transaction<Database>,
  input: { userId: string; email: string; name?: string; account: OwnerAdminResult['account'] },
): Promise<OwnerAdminResult['record']> {
  const { userId, email } = input;
  const version = await nextVersion(trx);
  const record = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
  let outcome: OwnerAdminResult['record'];
  if (!record) {
    // Another live record may hold the address (a user whose auth account was deleted meanwhile): it goes.
    await trx
      .updateTable('users')
      .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .execute();
    await trx
      .insertInto('users')
      .values({ id: userId, email, display_name: input.name ?? 'Owner', mobile: '', user_role: 'admin', version })
      .execute();
    outcome = 'created';
  } else if (record.deleted_at) {
    await trx.updateTable('users').set({ deleted_at: null, user_role: 'admin', version, updated_at: writeTime() }).where('id', '=', userId).execute();
    outcome = 'restored';
  } else if (record.user_role !== 'admin') {
    await trx.updateTable('users').set({ user_role: 'admin', version, updated_at: writeTime() }).where('id', '=', userId).execute();
    outcome = 'promoted';
  } else {
    outcome = 'already admin';
  }
  await recordAudit(trx, null, { action: 'user.admin_from_shell', entity: 'user', entityId: userId, details: { account: input.account, record: outcome } });
  return outcome;
}
