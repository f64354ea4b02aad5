import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';

// The iOS steps load when asked for: they are not part of every page's first load.
const IosInstallHelp = lazy(() => import('./ios-install-help.tsx').then((m) => ({ default: m.IosInstallHelp })));

/** Chromium's install offer (not in the DOM typings). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

// The browser offers installation once, often before any component mounts: keep the offer from the start.
let offer: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offer = event as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    notify();
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const getOffer = () => offer;

const isStandalone = () =>
  typeof window !== 'undefined' &&
  (window.matchMedia?.('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true);

/** iPhone and iPad Safari install only through Share, Add to Home Screen. */
const isIos = () =>
  typeof navigator !== 'undefined' && (/iphone|ipad|ipod/i.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1));

/** "Install app" where the browser offers installation, or how to add it to the Home Screen on iOS. */
export function InstallButton() {
  const current = useSyncExternalStore(subscribe, getOffer, () => null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [installed, setInstalled] = useState(isStandalone);

  useEffect(() => {
    const onInstalled = () => setInstalled(true);
    window.addEventListener('appinstalled', onInstalled);
    return () => window.removeEventListener('appinstalled', onInstalled);
  }, []);

  if (installed) return null;
  if (current) {
    const install = async () => {
      offer = null;
      notify();
      await current.prompt();
      const choice = await current.userChoice;
      if (choice.outcome === 'accepted') setInstalled(true);
    };
    return (
      <button type="button" className="btn btn-sm btn-outline btn-primary" onClick={() => void install()}>
        <DownloadIcon />
        Install app
      </button>
    );
  }
  if (!isIos()) return null;
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline btn-primary" onClick={() => setHelpOpen(true)} aria-haspopup="dialog">
        <DownloadIcon />
        Install app
      </button>
      {helpOpen && (
        <Suspense fallback={null}>
          <IosInstallHelp onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function DownloadIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-4 w-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 3v12M7 10l5 5 5-5M5 21h14" />
    </svg>
  );
}
