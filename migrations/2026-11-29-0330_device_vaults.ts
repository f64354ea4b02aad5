import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// The server's half of a device vault (issue 30 item 4, decision 181).
// - id: the vault's id, chosen by the device (its IndexedDB record carries the same id).
// - public_key: the vault's ECDH P-256 public JWK; the server seals delivered secrets to it (decision 182).
// - pin_salt, pin_iterations: the PBKDF2 parameters of the PIN (not secret; another device proves the PIN with them).
// - verifier_hash: an HMAC (blind-index key) of the PIN verifier; never the PIN, never the verifier itself.
// - pepper_enc: 32 random bytes sealed with CREDENTIALS_KEY; null once the vault is destroyed.
// - wrong_tries: wrong PINs in a row, counted here and nowhere else; the fifth destroys the pepper.
export async function up(db: Db): Promise<void> {
  await sql`
    create table device_vaults (
      id uuid primary key,
      user_id uuid not null,
      public_key jsonb not null,
      pin_salt text not null,
      pin_iterations integer not null check (pin_iterations >= 1000),
      verifier_hash text not null,
      pepper_enc text,
      wrong_tries integer not null default 0 check (wrong_tries >= 0),
      device_label text not null default '',
      created_at timestamptz not null default now(),
      last_unlock_at timestamptz,
      destroyed_at timestamptz,
      check ((pepper_enc is null) = (destroyed_at is not null))
    )`.execute(db);
  await sql`create index device_vaults_user_idx on device_vaults (user_id)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table device_vaults`.execute(db);
}
