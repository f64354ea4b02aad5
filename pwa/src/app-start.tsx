// The app's start, loaded by main.tsx (decision 070).
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, makeRouter, routerReady } from './app/app.tsx';
import { nextTask } from './db/device.ts';
import { PublicSnapshotContext, readEmbeddedSnapshot } from './lib/public-snapshot.tsx';

const root = document.getElementById('root')!;
const snapshot = readEmbeddedSnapshot();
const app = (
  <StrictMode>
    <PublicSnapshotContext value={snapshot}>
      <App />
    </PublicSnapshotContext>
  </StrictMode>
);

if (root.hasChildNodes()) {
  // A public page rendered on the server (decision 053) already shows its content. Once the page's code
  // has loaded, the app hydrates it (decision 070): it keeps the server's elements and attaches to them,
  // so nothing on screen is replaced (no second largest paint, no shift). As a transition, React works in
  // slices of a few milliseconds, between which the page answers taps and scrolls. Whatever differs
  // (a signed-in visitor's header) makes React render the page afresh, as the app did before.
  // This module's evaluation, the router's making (the history, matching the address), its start (loading
  // the page's code) and the hydration's start each run in a task of their own: in one they made a task
  // of 90 ms and more on a phone (4× CPU slowdown), which Lighthouse counts as blocking (decision 070).
  void nextTask()
    .then(makeRouter)
    .then(nextTask)
    .then(routerReady)
    .then(nextTask)
    .then(() =>
      startTransition(() => {
        hydrateRoot(root, app, {
          onRecoverableError: (error) => console.info('The app rendered the page afresh instead of taking over the server’s HTML', error),
        });
      }),
    );
} else {
  // The page's code starts loading at once, while the app waits for the visitor's session.
  void routerReady();
  createRoot(root).render(app);
}
