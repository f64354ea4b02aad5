import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, routerReady } from './app/app.tsx';
import { PublicSnapshotContext, readEmbeddedSnapshot } from './lib/public-snapshot.tsx';
import './styles.css';

const root = document.getElementById('root')!;
// A public page rendered on the server (decision 053) already shows its content: the app takes over
// once the page's code has loaded, rendering the same rows, so nothing on screen moves or blinks.
const snapshot = readEmbeddedSnapshot();
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <PublicSnapshotContext value={snapshot}>
        <App />
      </PublicSnapshotContext>
    </StrictMode>,
  );
if (root.hasChildNodes()) void routerReady().then(render);
else render();
