import { userLimits } from '../../contract/users.ts';
import { validationFailed } from './auth-requests.ts';

/** The fields of an account's metadata the app reads, and the most characters each may hold. */
const PROFILE_FIELDS: Record<string, number> = { displayName: userLimits.displayName, mobile: userLimits.mobile };
const FIELD_NAMES = Object.keys(PROFILE_FIELDS).join(', ');

/**
 * The account's metadata after `changes` (GoTrue's `data`): a shallow merge where null removes a key, as
 * Supabase does, but only of the profile fields the app uses, each a short text, so no account can grow
 * what every token and sign-in answer carries (decision 163). Keys kept from before that are not profile
 * fields are dropped.
 */
export function profileData(current: Record<string, unknown>, changes: unknown): Record<string, unknown> {
  if (changes !== undefined && changes !== null && (typeof changes !== 'object' || Array.isArray(changes))) {
    throw validationFailed('data must be a JSON object');
  }
  const merged: Record<string, unknown> = {};
  for (const name of Object.keys(PROFILE_FIELDS)) if (typeof current[name] === 'string') merged[name] = current[name];
  for (const [key, value] of Object.entries((changes ?? {}) as Record<string, unknown>)) {
    const max = Object.hasOwn(PROFILE_FIELDS, key) ? PROFILE_FIELDS[key] : undefined;
    if (max === undefined) throw validationFailed(`data.${key}: not a profile field (${FIELD_NAMES})`);
    if (value === null) {
      delete merged[key];
      continue;
    }
    if (typeof value !== 'string') throw validationFailed(`data.${key} must be text`);
    if ([...value].length > max) throw validationFailed(`data.${key} must be at most ${max} characters`);
    merged[key] = value;
  }
  return merged;
}
