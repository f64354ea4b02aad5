import { spawn } from 'node:child_process';

// `npm run dev`: the API server (on PORT, default 8787) and Vite's dev server proxying to it.
const children = [
  spawn(process.execPath, ['--env-file-if-exists=.env', '--watch-path=edge-api', 'edge-api/src/node.ts'], { stdio: 'inherit', env: process.env }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit', env: process.env }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
children.forEach((child) => child.once('exit', stop));
