import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { nestedDeeperThan, TOO_DEEP_MESSAGE, UNSAFE_TEXT_MESSAGE, unsafeTextPath } from '../../contract/fields.ts';
import { PASSWORD_MIN_CHARS } from '../../contract/users.ts';

const MAX_PASSWORD_BYTES = 72; // bcrypt ignores anything longer
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An error in Supabase Auth's 2024-01-01 format: `{code, message}` plus any extra fields. */
export class AuthFailure extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: ContentfulStatusCode, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const validationFailed = (message: string) => new AuthFailure(400, 'validation_failed', message);
export const invalidCredentials = () => new AuthFailure(400, 'invalid_credentials', 'Invalid login credentials');
export const weakPassword = (message: string) => new AuthFailure(422, 'weak_password', message, { weak_password: { reasons: ['length'] } });

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AuthFailure(400, 'bad_json', 'Could not parse request body as JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AuthFailure(400, 'bad_json', 'Request body must be a JSON object');
  }
  // Metadata is stored as given: a body nested past what the text check walks, or past what
  // JSON.stringify can write back, is refused first.
  if (nestedDeeperThan(body)) throw validationFailed(`body: ${TOO_DEEP_MESSAGE}`);
  // Postgres cannot store them, and no one types them: refused before any query.
  const unsafe = unsafeTextPath(body);
  if (unsafe !== undefined) throw validationFailed(`${unsafe}: ${UNSAFE_TEXT_MESSAGE}`);
  return body as Record<string, unknown>;
}

export function normalizeEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw validationFailed('An email address is required');
  const email = value.trim().toLowerCase();
  if (email.length > 255 || !EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email;
}

export function checkNewPassword(value: unknown, missingMessage: string): string {
  if (typeof value !== 'string' || value === '') throw validationFailed(missingMessage);
  if ([...value].length < PASSWORD_MIN_CHARS) throw weakPassword(`Password should be at least ${PASSWORD_MIN_CHARS} characters.`);
  if (new TextEncoder().encode(value).length > MAX_PASSWORD_BYTES) {
    throw weakPassword(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters.`);
  }
  return value;
}
