import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Duplicate checks of new stock (one at a time or thousands in an import) look stock up by email, case
// aside, and by the password's blind index.
export async function up(db: Db): Promise<void> {
  await sql`create index wise_stocks_email_idx on wise_stocks (lower(wise_email)) where deleted_at is null`.execute(db);
  await sql`create index wise_stocks_password_idx on wise_stocks (wise_password_index) where deleted_at is null`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop index wise_stocks_password_idx`.execute(db);
  await sql`drop index wise_stocks_email_idx`.execute(db);
}
