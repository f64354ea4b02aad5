// `npm start`: the build check and the server in one Node process under the shell npm runs. npm forwards
// SIGTERM and Ctrl-C to that shell, and a shell that did not exec its command (dash does not) dies of it and
// leaves the app running, orphaned with its database: when the parent goes away, the app stops as on
// SIGTERM (decision 110).
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) process.kill(process.pid, 'SIGTERM');
}, 250).unref();
await import('./ensure-build.ts');
await import('../edge-api/src/node.ts');

export {};
