/**
 * The fifth wrong PIN clears the device's copy (decision 068), which can sign the app out before the PIN
 * dialog has sent the person anywhere: a screen that needs a user then sends them to registration. The
 * wipe leaves this notice for the tab, so the sign-in screens say why, and registration hands over to sign-in.
 */
export const WIPED_REASON = 'Too many wrong PINs: the passwords were removed from this device. Sign in again to get them back.';

const KEY = 'storefront.vault-wiped';

export function noteWipe(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // No storage: the dialog's own navigation still says it.
  }
}

export function hasWipeNotice(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Once the sign-in screen has shown it. */
export function clearWipeNotice(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
