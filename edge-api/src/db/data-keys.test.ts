import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSecrets, type Secrets } from '../lib/secrets.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { DataKeyMismatch, verifyDataKeys } from './data-keys.ts';
import type { Database } from './schema.ts';
import { nextVersion } from './versions.ts';

let db: Kysely<Database>;
let close: () => Promise<void>;
const random = () => crypto.getRandomValues(new Uint8Array(32));

beforeAll(async () => {
  ({ db, close } = await openTestDatabase());
});
afterAll(() => close());
// Each test starts from a database that has recorded no keys and holds no password.
beforeEach(async () => {
  await db.deleteFrom('data_keys').execute();
  await db.deleteFrom('wise_stocks').execute();
});

async function mismatch(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(DataKeyMismatch);
  return error as DataKeyMismatch;
}

/** A stock sealed and indexed with `secrets`, as POST /api/wise-stocks writes it. */
async function insertStock(secrets: Secrets, password = 'Stock#Pass-1') {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('wise_stocks')
      .values({
        id: crypto.randomUUID(),
        wise_name: 'Checked',
        wise_email: 'checked@wise.test',
        wise_password_enc: await secrets.encrypt(password),
        wise_password_index: await secrets.blindIndex(password),
        auth_image: 'https://img.example/a.png',
        user_name: 'Owner',
        version: await nextVersion(trx),
      })
      .execute();
  });
}

describe('the stored data key check', () => {
  it('records the keys a new database starts with and lets the same keys in again', async () => {
    const credentials = random();
    const blindIndex = random();
    const secrets = await createSecrets(credentials, blindIndex);
    await verifyDataKeys(db, secrets);
    const rows = await db.selectFrom('data_keys').select(['name', 'key_id']).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'BLIND_INDEX_KEY', key_id: secrets.keyIds.blindIndex },
      { name: 'CREDENTIALS_KEY', key_id: secrets.keyIds.credentials },
    ]);
    // Fingerprints, not keys: nothing of either key is stored.
    expect(JSON.stringify(rows)).not.toContain(btoa(String.fromCharCode(...credentials)));
    await verifyDataKeys(db, await createSecrets(credentials, blindIndex));
  });

  it('names the one key that is wrong, with both key ids', async () => {
    const credentials = random();
    const blindIndex = random();
    const first = await createSecrets(credentials, blindIndex);
    await verifyDataKeys(db, first);

    const otherCredentials = await createSecrets(random(), blindIndex);
    const wrongCredentials = await mismatch(verifyDataKeys(db, otherCredentials));
    expect(wrongCredentials.keys).toEqual(['CREDENTIALS_KEY']);
    expect(wrongCredentials.message).toContain(`CREDENTIALS_KEY is not the key this database's data was made with`);
    expect(wrongCredentials.message).toContain(first.keyIds.credentials);
    expect(wrongCredentials.message).toContain(otherCredentials.keyIds.credentials);
    expect(wrongCredentials.message).not.toContain('BLIND_INDEX_KEY');

    const wrongIndex = await mismatch(verifyDataKeys(db, await createSecrets(credentials, random())));
    expect(wrongIndex.keys).toEqual(['BLIND_INDEX_KEY']);
    expect((await mismatch(verifyDataKeys(db, await createSecrets(random(), random())))).keys.sort()).toEqual(['BLIND_INDEX_KEY', 'CREDENTIALS_KEY']);
  });

  it('checks a database from before the check against its stored passwords, then records the keys', async () => {
    const credentials = random();
    const blindIndex = random();
    const secrets = await createSecrets(credentials, blindIndex);
    await insertStock(secrets);

    expect((await mismatch(verifyDataKeys(db, await createSecrets(random(), blindIndex)))).keys).toEqual(['CREDENTIALS_KEY']);
    expect((await mismatch(verifyDataKeys(db, await createSecrets(credentials, random())))).keys).toEqual(['BLIND_INDEX_KEY']);
    expect(await db.selectFrom('data_keys').selectAll().execute()).toEqual([]);

    await verifyDataKeys(db, secrets);
    expect(await db.selectFrom('data_keys').selectAll().execute()).toHaveLength(2);
  });
});
