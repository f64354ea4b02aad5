import { api, unwrap } from './api-client.ts';
import { AppError } from './app-error.ts';
import { deviceId, deviceLabel } from './device-identity.ts';

/**
 * Web push on this device (decision 067): the browser's subscription, made with the shop's public VAPID
 * key (read from the server at run time, never built in), and its copy on the server, one per device.
 * The service worker (public/push-sw.js) shows each message and opens its page on a click.
 */

export type PushState =
  /** No service worker, PushManager or Notification here (an iPhone outside the installed app, an old browser). */
  | 'unsupported'
  /** The shop has no VAPID keys: notifications are off for everyone. */
  | 'unavailable'
  /** The person blocked notifications for this site: only the browser's settings can undo it. */
  | 'denied'
  | 'off'
  | 'on';

export const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  // The worker registers after the first paint (update-prompt.tsx); an unregistered page has none.
  return (await navigator.serviceWorker.getRegistration()) ?? undefined;
}

/** The public key the server serves, or null when push is not set up there. */
async function publicKey(): Promise<string | null> {
  const response = await fetch('/api/config', { cache: 'no-store' });
  if (!response.ok) throw new Error(`The server answered ${response.status}`);
  return ((await response.json()) as { pushPublicKey?: string | null }).pushPublicKey ?? null;
}

const keyBytes = (base64url: string) =>
  Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)), (c) => c.charCodeAt(0));

/** How to allow notifications again once they are blocked: the browser's own settings, never the page. */
export const ALLOW_STEPS =
  'To allow them, open this site’s settings in your browser (the icon left of the address, or Settings › Site settings › Notifications), set Notifications to Allow, then turn this on again.';

/** What went wrong turning notifications on, in plain words with what to do (never the browser's raw message). */
export function pushProblem(cause: unknown): string {
  const name = cause instanceof DOMException || cause instanceof Error ? cause.name : '';
  if (name === 'NotAllowedError') return `Your browser refused notifications for this site. ${ALLOW_STEPS}`;
  if (name === 'NotSupportedError')
    return 'This browser cannot receive notifications from the shop. Try Chrome, Edge, Firefox or Safari, or on an iPhone the shop added to your Home Screen.';
  if (name === 'AbortError' || name === 'InvalidStateError' || name === 'NetworkError') {
    return 'Your browser could not sign this device up with its notification service. Check your connection and try again; in Brave, first turn on “Use Google services for push messaging” in its privacy settings.';
  }
  if (cause instanceof AppError) {
    return cause.code === 'network'
      ? 'You are offline. Connect to the internet and try again.'
      : 'The shop could not save this device for notifications. Try again in a moment.';
  }
  return 'Could not turn notifications on. Check your connection and try again.';
}

/** Where this device stands, without asking the person anything. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const existing = await (await registration())?.pushManager.getSubscription();
  return existing && Notification.permission === 'granted' ? 'on' : 'off';
}

/**
 * Turns notifications on: asks for permission (the browser's own prompt), subscribes with the shop's key
 * and saves the subscription on the server. Answers the state it ended in.
 */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const key = await publicKey();
  if (!key) return 'unavailable';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const worker = (await registration()) ?? (await navigator.serviceWorker.ready);
  let subscription = await worker.pushManager.getSubscription();
  // A subscription made with another key (the shop's keys changed) cannot be used: made again.
  const current = subscription?.options.applicationServerKey;
  if (subscription && current && btoa(String.fromCharCode(...new Uint8Array(current))) !== btoa(String.fromCharCode(...keyBytes(key)))) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const json = subscription.toJSON();
  await unwrap(
    api.push.subscriptions.$post({
      json: {
        endpoint: subscription.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
        deviceId: deviceId(),
        deviceLabel: deviceLabel(),
      },
    }),
  );
  return 'on';
}

/**
 * Turns notifications off on this device: the server forgets the subscription, and the browser drops it
 * (so a push service that is still asked answers 410, and the server removes it then, should the first
 * step fail offline).
 */
export async function disablePush(): Promise<void> {
  if (!pushSupported()) return;
  const subscription = await (await registration())?.pushManager.getSubscription();
  if (!subscription) return;
  try {
    await unwrap(api.push.subscriptions.$delete({ json: { endpoint: subscription.endpoint } }));
  } finally {
    await subscription.unsubscribe();
  }
}

/** At sign-out, while the token still works: never stops the sign-out. */
export async function removePushOnSignOut(): Promise<void> {
  try {
    await disablePush();
  } catch (error) {
    console.warn('Could not turn off notifications for this device', error);
  }
}

/** After "sign out other devices": the server keeps only this device's subscription (if any). Never throws. */
export async function keepOnlyThisDevicePush(): Promise<void> {
  try {
    const subscription = pushSupported() ? await (await registration())?.pushManager.getSubscription() : undefined;
    await unwrap(api.push.subscriptions.others.$post({ json: { keep: subscription?.endpoint ?? null } }));
  } catch (error) {
    console.warn('Could not turn off notifications on the other devices', error);
  }
}
