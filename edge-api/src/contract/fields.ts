/**
 * The pieces every request schema is built from, so a rule (what "required" means, how long an email
 * may be, what a version is) is written once for the API and the forms of the PWA.
 */
import * as z from 'zod';
import type { FieldIssue } from './errors.ts';

/** A missing field reads "is required" rather than zod's "expected string, received undefined". */
const textMessage = { error: (issue: { input: unknown }) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be text') };

export const uuid = z.uuid({ message: 'must be a UUID' });
export const idParam = z.object({ id: uuid });

/** Text trimmed of surrounding spaces, at most `max` characters; may be empty. */
export const text = (max: number) => z.string(textMessage).trim().max(max, `must be at most ${max} characters`);

/** Text that must not be blank once trimmed. */
export const requiredText = (max: number) => text(max).min(1, 'is required');

/** What a mobile number may hold, said after the field's name ('Mobile Number may hold only ...'). */
export const MOBILE_RULE = 'may hold only digits, spaces and a leading +';
/** A mobile number as people type it: digits, with spaces to group them and a + in front; at least one digit. */
export const mobileText = (max: number) => requiredText(max).regex(/^\+?[ \d]*\d[ \d]*$/, MOBILE_RULE);

/**
 * A person's name, shown to others in lists, notifications and push texts: required, and without the
 * direction embeddings, overrides and isolates (U+202A–202E, U+2066–2069) that would turn the text after
 * it around. Right-to-left scripts need none of them; the marks (U+200E, U+200F) stay allowed.
 */
export const hasDirectionControls = (value: string) => /[\u202A-\u202E\u2066-\u2069]/.test(value);
export const nameText = (max: number) => requiredText(max).refine((value) => !hasDirectionControls(value), 'must not hold direction control characters');

export const EMAIL_MAX = 320;
const email = z.email('must be an email address');
/** An email address, trimmed. */
export const emailText = text(EMAIL_MAX).pipe(email);
/** An email address that must be given: blank reads "is required". */
export const requiredEmail = requiredText(EMAIL_MAX).pipe(email);

/** Lists typed in forms: blank entries are dropped, as the spec asks. */
export const textList = (maxItems: number, maxLength: number) =>
  z
    .array(z.string().max(maxLength, `entries must be at most ${maxLength} characters`))
    .max(maxItems, `must have at most ${maxItems} entries`)
    .transform((items) => items.map((item) => item.trim()).filter((item) => item.length > 0));

/** One of a fixed list, naming the list when it is something else. */
export const oneOf = <const T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]], { error: `must be one of ${values.join(', ')}` });

/** The row version the client last saw; a stale one answers 409. */
export const expectedVersion = z.number().int().nonnegative().optional();

/** The PWA omits empty query values; a hand-written `?status=` means the same. */
export const blankAsMissing = (value: unknown) => (value === '' ? undefined : value);

/** A query parameter: Hono hands one given twice over as a list, which this refuses. */
export const queryText = (max: number) => z.string({ error: 'must be given once' }).max(max, `must be at most ${max} characters`);

/** Sent with a queued change, so a replay answers the first result and changes nothing. */
export const idempotencyHeader = z.object({
  'idempotency-key': z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

export const WISE_PASSWORD_MAX = 500;
/**
 * A Wise account's password, kept exactly as typed (never trimmed): one rule for a stock, a delivery
 * and the duplicate check, so a stock's password can always be delivered and checked.
 */
export const wisePassword = z
  .string(textMessage)
  .max(WISE_PASSWORD_MAX, `must be at most ${WISE_PASSWORD_MAX} characters`)
  .refine((value) => value.trim() !== '', { message: 'is required' });

export const IMAGE_ADDRESS_MAX = 2000;

/** A NUL character, or half of a surrogate pair alone: text Postgres cannot store and no keyboard types. */
// eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** Whether a string holds a NUL or an unpaired surrogate. */
export const isUnsafeText = (value: string): boolean => UNSAFE_TEXT.test(value);

/** How deep a JSON body may nest: no request of the API or the auth nests more than a few levels. */
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP_MESSAGE = `must not nest objects or arrays more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether a parsed JSON value nests objects or arrays deeper than `max` levels. Iterative, so a body of
 * 100,000 nested arrays cannot overflow the stack here (it would later, in JSON.stringify or a check).
 */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The path of the first string (object keys included) in a parsed JSON value that is unsafe text, or
 * undefined when there is none: '' for the value itself, 'items.0.name' inside it.
 */
export function unsafeTextPath(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isUnsafeText(value) ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (isUnsafeText(key)) return at;
    const found = unsafeTextPath(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A failed check as the API answers it (the `details` of a 400), and as the forms show it: one entry per problem. */
export const fieldIssues = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): FieldIssue[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
