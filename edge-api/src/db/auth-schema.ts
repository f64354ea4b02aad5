import type { ColumnType, Generated } from 'kysely';
import type { Json, NullableTime, Timestamp } from './column-types.ts';

/** The embedded auth server's tables (decision 005), apart from the shop's in schema.ts. */

export interface AuthUsersTable {
  id: string;
  email: string;
  encrypted_password: string;
  user_metadata: Json<Record<string, unknown>>;
  last_sign_in_at: Timestamp | null;
  /** Null: the address was never confirmed (an ADMIN_EMAILS address signed up on the embedded auth). */
  email_confirmed_at: NullableTime;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  refreshed_at: Timestamp | null;
  /** How the session began: 'password', 'recovery' (a mailed link) or 'email_change'. */
  method: ColumnType<string, string | undefined, string>;
}

/** A mailed link's secret, hashed: one live link per account and purpose. */
export interface AuthOneTimeTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'recovery' | 'email_change' | 'magiclink';
  new_email: string | null;
  created_at: Timestamp;
  /** A sign-in link's six-digit code, hashed with its account (decision 168). */
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  code_failures: ColumnType<number, number | undefined, number>;
}

export interface AuthRefreshTokensTable {
  token_hash: string;
  session_id: string;
  user_id: string;
  revoked: Generated<boolean>;
  created_at: Timestamp;
  revoked_at: NullableTime;
  /** Its successor, AES-GCM sealed with a key derived from this token: only its holder can open it. */
  successor_sealed: ColumnType<string | null, string | null | undefined, string | null>;
}
