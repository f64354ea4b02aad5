import { useEffect, useState, useSyncExternalStore } from 'react';

/** How often an open app asks whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

interface WorkerState {
  /** A new version is installed and waiting for the person's go-ahead. */
  waiting: boolean;
  /** Takes the waiting version into use: the page reloads once it controls the page. */
  activate: (() => void) | null;
}

let state: WorkerState = { waiting: false, activate: null };
const listeners = new Set<() => void>();
const setState = (next: WorkerState) => {
  state = next;
  listeners.forEach((listener) => listener());
};
let registered = false;

/**
 * Registers the service worker once per page. workbox-window loads after the first render, so it never
 * weighs on the first load. `registerType: 'prompt'`: a new version waits until the person says reload.
 */
async function registerServiceWorker() {
  if (registered || !import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registered = true;
  // After the page's load (decision 070, 2026-11-24): the worker's install fetches every precached file,
  // which must not compete with what the page itself still loads.
  if (document.readyState !== 'complete') await new Promise((loaded) => window.addEventListener('load', loaded, { once: true }));
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox('/sw.js', { scope: '/' });
  const offerUpdate = () =>
    setState({
      waiting: true,
      activate: () => {
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      },
    });
  workbox.addEventListener('waiting', offerUpdate);
  const registration = await workbox.register();
  if (!registration) return;
  const check = () => {
    if (document.visibilityState === 'visible' && navigator.onLine) registration.update().catch(() => {});
  };
  setInterval(check, UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', check);
}

const dirtyForms = new Set<symbol>();

/**
 * A form says it holds input not yet saved; the update prompt then asks before reloading. Forms that do
 * not call this are still covered by a look at the page (see hasUnsavedInput).
 */
export function useUnsavedChanges(dirty: boolean) {
  const [key] = useState(() => Symbol('form'));
  useEffect(() => {
    if (dirty) dirtyForms.add(key);
    else dirtyForms.delete(key);
    return () => {
      dirtyForms.delete(key);
    };
  }, [dirty, key]);
}

const TEXT_INPUTS =
  'input:not([type]), input[type=text], input[type=email], input[type=password], input[type=tel], input[type=url], input[type=number], textarea';

/** Whether reloading now could lose something typed: a registered dirty form, or text in any open form. */
export function hasUnsavedInput(root: ParentNode = document): boolean {
  if (dirtyForms.size > 0) return true;
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(`form ${TEXT_INPUTS.split(', ').join(', form ')}`)) {
    if (field.disabled || field.readOnly || field.closest('[role=search]')) continue;
    if (field.value.trim() !== '') return true;
  }
  for (const file of root.querySelectorAll<HTMLInputElement>('form input[type=file]')) {
    if (file.files && file.files.length > 0) return true;
  }
  return false;
}

/** "A new version is available": reloads only when asked, and warns first when a form holds input. */
export function UpdatePrompt() {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
  const [confirming, setConfirming] = useState(false);
  const [later, setLater] = useState(false);

  useEffect(() => {
    void registerServiceWorker().catch((error: unknown) => console.warn('Service worker registration failed', error));
  }, []);

  if (!current.waiting || later) return null;

  const reload = (force: boolean) => {
    if (!force && hasUnsavedInput()) {
      setConfirming(true);
      return;
    }
    current.activate?.();
  };

  return (
    <div className="toast toast-end toast-bottom z-50" role="status" aria-live="polite">
      <div className="alert flex max-w-sm flex-col items-start gap-2 shadow-lg">
        {confirming ? (
          <>
            <p>You have unsaved input on this page. Save or clear it first, or reload now and lose it.</p>
            <div className="flex gap-2">
              <button type="button" className="btn btn-sm btn-warning" onClick={() => reload(true)}>
                Reload anyway
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </>
        ) : (
          <>
            <p>A new version of the app is available.</p>
            <div className="flex gap-2">
              <button type="button" className="btn btn-sm btn-primary" onClick={() => reload(false)}>
                Reload
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setLater(true)}>
                Later
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
