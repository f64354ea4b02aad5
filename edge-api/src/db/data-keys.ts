import type { Kysely } from 'kysely';
import type { Secrets } from '../lib/secrets.ts';
import type { Database, DataKeysTable } from './schema.ts';

type KeyName = DataKeysTable['name'];

/** The configured data keys are not the ones this database's data was made with. */
export class DataKeyMismatch extends Error {
  readonly keys: KeyName[];
  constructor(problems: { key: KeyName; message: string }[]) {
    super(problems.map((problem) => problem.message).join('\n'));
    this.keys = problems.map((problem) => problem.key);
  }
}

const HOW_TO_FIX = 'Set it to the key this shop used before (docs/deploy-workers.md, "Moving an existing shop").';

/** One sealed password and its blind index, if the database holds any: what a key check without records can try. */
async function sampleSealedPassword(db: Kysely<Database>) {
  const stock = await db.selectFrom('wise_stocks').select(['wise_password_enc as sealed', 'wise_password_index as index']).limit(1).executeTakeFirst();
  if (stock) return stock;
  return db
    .selectFrom('orders')
    .select(['wise_password_enc as sealed', 'wise_password_index as index'])
    .where('wise_password_enc', 'is not', null)
    .where('wise_password_index', 'is not', null)
    .limit(1)
    .executeTakeFirst();
}

/**
 * Checks, at start, that CREDENTIALS_KEY and BLIND_INDEX_KEY are the keys this database's passwords were
 * sealed and indexed with, and throws DataKeyMismatch naming the wrong one. The database keeps each key's
 * fingerprint; a database that has none yet (new, or older than this check) is checked against a stored
 * password instead, and then records the fingerprints.
 */
export async function verifyDataKeys(db: Kysely<Database>, secrets: Secrets): Promise<void> {
  const configured: Record<KeyName, string> = { CREDENTIALS_KEY: secrets.keyIds.credentials, BLIND_INDEX_KEY: secrets.keyIds.blindIndex };
  const compare = (rows: { name: KeyName; key_id: string }[]) =>
    rows
      .filter((row) => row.key_id !== configured[row.name])
      .map((row) => ({
        key: row.name,
        message: `${row.name} is not the key this database's data was made with: the database holds data under key id ${row.key_id}, the configured key's id is ${configured[row.name]}. ${HOW_TO_FIX}`,
      }));

  const recorded = await db.selectFrom('data_keys').select(['name', 'key_id']).execute();
  const problems = compare(recorded);
  if (problems.length > 0) throw new DataKeyMismatch(problems);
  if (recorded.length === 2) return;

  const sample = await sampleSealedPassword(db);
  if (sample?.sealed) {
    let plain: string | undefined;
    try {
      plain = await secrets.decrypt(sample.sealed);
    } catch {
      throw new DataKeyMismatch([
        {
          key: 'CREDENTIALS_KEY',
          message: `CREDENTIALS_KEY (key id ${configured.CREDENTIALS_KEY}) cannot open the passwords stored in this database. ${HOW_TO_FIX}`,
        },
      ]);
    }
    if (sample.index && (await secrets.blindIndex(plain)) !== sample.index) {
      throw new DataKeyMismatch([
        {
          key: 'BLIND_INDEX_KEY',
          message: `BLIND_INDEX_KEY (key id ${configured.BLIND_INDEX_KEY}) does not match the duplicate-check index stored in this database. ${HOW_TO_FIX}`,
        },
      ]);
    }
  }
  await db
    .insertInto('data_keys')
    .values((Object.keys(configured) as KeyName[]).map((name) => ({ name, key_id: configured[name] })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Another server may have recorded its keys first.
  const again = compare(await db.selectFrom('data_keys').select(['name', 'key_id']).execute());
  if (again.length > 0) throw new DataKeyMismatch(again);
}
