import './styles.css';
import { startRouteCode } from './app/start-route.ts';

// The entry of index.html, kept to a few lines (decision 070). A public page rendered on the server
// (decision 053) already shows its content: the app's code (React, the router, the frame) is fetched once
// that content has been painted, so the first paint and the largest one never wait for it, on the network
// or on the main thread. An empty page (the app shell: a dashboard screen, offline) starts it at once.
const start = () => {
  import('./app-start.tsx').catch((error: unknown) => console.error('The app could not start', error));
};
if (document.getElementById('root')?.hasChildNodes()) requestAnimationFrame(() => setTimeout(start, 0));
else {
  start();
  // The screen's code is asked for beside the app's (decision 255), not once the router has matched the
  // address; in the next task, so that the app's own request reaches the service worker first.
  setTimeout(() => startRouteCode(location.pathname), 0);
}
