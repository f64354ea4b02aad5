/**
 * This browser's identity for the reveal log (decision 066): a random id kept in localStorage (it
 * survives sign-out, so one phone stays one device), and a short label of the browser and system read
 * from the user agent, e.g. "Chrome on Android". No IP, nothing else about the person.
 */
const DEVICE_ID_KEY = 'storefront-device-id';

export function deviceId(): string {
  try {
    const saved = localStorage.getItem(DEVICE_ID_KEY);
    if (saved && /^[A-Za-z0-9_-]{1,100}$/.test(saved)) return saved;
    const fresh = crypto.randomUUID();
    localStorage.setItem(DEVICE_ID_KEY, fresh);
    return fresh;
  } catch {
    // Storage refused (a private window's quota): a fresh id for this page's life.
    return (fallbackId ??= crypto.randomUUID());
  }
}
let fallbackId: string | undefined;

/** "Chrome on Android", "Safari on iPhone", "Firefox on Windows"; "Browser" when nothing is known. */
export function deviceLabel(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): string {
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /SamsungBrowser\//.test(ua)
      ? 'Samsung Internet'
      : /OPR\/|Opera/.test(ua)
        ? 'Opera'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'Firefox'
          : /Chrome\/|CriOS\/|Chromium\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : 'Browser';
  const system = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(ua)
            ? 'Mac'
            : /CrOS/.test(ua)
              ? 'ChromeOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : '';
  return system ? `${browser} on ${system}` : browser;
}
