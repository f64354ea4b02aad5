import { getSupabase } from './supabase.ts';

/*
 * Account recovery and changes (issue 17): the same supabase-js calls work against the embedded auth
 * server and against Supabase, which mails the links itself.
 */

/** Mails a link to choose a new password; the answer is the same whether the address has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${window.location.origin}/reset-password` });
  if (error) throw error;
}

/** The new password of a session a recovery link opened (no current password needed there). */
export async function setNewPassword(password: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

/** Changes the password of a signed-in user, who proves it with the current one; other devices sign out. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password: newPassword, current_password: currentPassword });
  if (error) throw error;
}

/** Mails a confirmation link to the new address; the email changes when it is opened. */
export async function changeEmail(newEmail: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ email: newEmail }, { emailRedirectTo: `${window.location.origin}/profile` });
  if (error) throw error;
}

/** Ends every session of this account but this device's. */
export async function signOutOtherDevices(): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signOut({ scope: 'others' });
  if (error) throw error;
}

/** What the recovery and account screens say about a refused change. */
export function accountErrorMessage(error: unknown): string {
  const { code, status, name } = (typeof error === 'object' && error !== null ? error : {}) as { code?: string; status?: number; name?: string };
  switch (code) {
    case 'weak_password':
      return 'Password should be at least 6 characters';
    case 'current_password_required':
      return 'Enter your current password.';
    case 'reauthentication_needed':
      // A recovery link sets a new password within 15 minutes of being opened (decision 163).
      return 'This password reset link has expired. Ask for a new one.';
    case 'current_password_mismatch':
      return 'Your current password is not right. Check it and try again.';
    case 'same_password':
      return 'Choose a password different from your current one.';
    case 'email_exists':
      return 'Another account already uses this email address.';
    case 'validation_failed':
      return 'Enter a valid email address.';
    case 'over_email_send_rate_limit':
      return 'An email was sent a moment ago. Please wait a minute before asking for another one.';
    case 'session_not_found':
      return 'Your session has ended. Please sign in again.';
  }
  if (status === 429) return 'Too many attempts. Please wait a minute and try again.';
  if (name === 'AuthSessionMissingError') return 'Your session has ended. Please sign in again.';
  if (typeof navigator !== 'undefined' && !navigator.onLine) return 'You are offline. Connect to the internet and try again.';
  return "We couldn't do that right now. Please try again.";
}
