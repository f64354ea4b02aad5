import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// `npm start` builds the PWA when dist/ is missing or older than its sources; `--force` always builds.
const sources = ['pwa', 'public', 'vite.config.ts', 'edge-api/src/contract', 'edge-api/src/lib/http-headers.ts'];

function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const built = statSync('dist/index.html', { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (process.argv.includes('--force') || built < Math.max(...sources.map(newest))) {
  console.log('Building the PWA…');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  // The server render of the public pages (decision 053), outside dist/ so it is never served.
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--ssr', 'src/server-render.tsx', '--outDir', '../dist-ssr', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
}
