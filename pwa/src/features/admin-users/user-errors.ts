import { hasCode } from '../../lib/app-error.ts';

/** A failure as the spec words it: a title and a sentence. */
export interface Failure {
  title: string;
  text: string;
}

const isPermissionError = (error: unknown) => hasCode(error, 'unauthorized', 'forbidden');
// The server's own words for a refusal it explains (the last admin, one's own account, a stale version).
const serverConflict = (error: unknown) => (hasCode(error, 'conflict', 'last_admin', 'own_account') ? error.message : null);

export const accessDenied: Failure = { title: 'Access Denied!', text: 'You do not have permission to access this data.' };

export function listFailure(error: unknown): Failure {
  return isPermissionError(error) ? accessDenied : { title: 'Error!', text: 'Failed to fetch users data' };
}

export function roleUpdateFailure(error: unknown): Failure {
  if (isPermissionError(error)) return { title: 'Permission Denied!', text: 'You need admin privileges to update user roles.' };
  const conflict = serverConflict(error);
  return conflict ? { title: 'Error!', text: conflict } : { title: 'Error!', text: 'Failed to update user role' };
}

export function deleteFailure(error: unknown): Failure {
  if (isPermissionError(error)) return { title: 'Permission Denied!', text: 'You need admin privileges to delete users.' };
  const conflict = serverConflict(error);
  // The spec gives this one no title, only the sentence.
  return conflict ? { title: 'Error!', text: conflict } : { title: '', text: 'Failed to delete user' };
}

/** One line for a toast. */
export const failureText = (failure: Failure) => (failure.title ? `${failure.title} ${failure.text}` : failure.text);
