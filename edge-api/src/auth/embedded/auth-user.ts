import type { AuthUserRow } from './auth-store.ts';

/** The user object Supabase Auth answers with. */
export interface AuthUser {
  id: string;
  aud: 'authenticated';
  role: 'authenticated';
  email: string;
  email_confirmed_at?: string;
  phone: string;
  confirmed_at?: string;
  last_sign_in_at?: string;
  app_metadata: { provider: 'email'; providers: ['email'] };
  user_metadata: Record<string, unknown>;
  identities: AuthIdentity[];
  created_at: string;
  updated_at: string;
  is_anonymous: false;
}

export interface AuthIdentity {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: { email: string; email_verified: boolean; phone_verified: boolean; sub: string };
  provider: 'email';
  last_sign_in_at?: string;
  created_at: string;
  updated_at: string;
  email: string;
}

function iso(value: Date | null): string | undefined {
  return value ? value.toISOString() : undefined;
}

export function toAuthUser(row: AuthUserRow): AuthUser {
  const createdAt = row.created_at.toISOString();
  const updatedAt = row.updated_at.toISOString();
  const lastSignInAt = iso(row.last_sign_in_at);
  return {
    id: row.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: row.email,
    // Sign-ups are confirmed at once, but for ADMIN_EMAILS addresses, which only the owner's `npm run admin`
    // confirms, and with AUTH_CONFIRM_SIGNUPS, until the mailed link is opened (decision 262).
    email_confirmed_at: iso(row.email_confirmed_at),
    phone: '',
    confirmed_at: iso(row.email_confirmed_at),
    last_sign_in_at: lastSignInAt,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: row.user_metadata,
    identities: [
      {
        identity_id: row.id,
        id: row.id,
        user_id: row.id,
        identity_data: { email: row.email, email_verified: row.email_confirmed_at !== null, phone_verified: false, sub: row.id },
        provider: 'email',
        last_sign_in_at: lastSignInAt,
        created_at: createdAt,
        updated_at: updatedAt,
        email: row.email,
      },
    ],
    created_at: createdAt,
    updated_at: updatedAt,
    is_anonymous: false,
  };
}
