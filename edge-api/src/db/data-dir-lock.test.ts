import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Two apps started at once on one DATA_DIR: exactly one takes it, whether the directory is free or holds
// the lock file of an app that died (decision 111). Each contender is its own process, as two `npm start` are.

const LOCK_MODULE = new URL('./embedded-postgres-process.ts', import.meta.url).pathname;
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/**
 * Tries to take the lock and says whether it did; a taker holds it until `release()` (its stdin closed), so
 * a contender that starts late on a loaded machine still meets the lock held, never one left by a finished taker.
 */
function contender(dataDir: string): { outcome: Promise<string>; release: () => Promise<void> } {
  const script = `import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)};
try { await lockDataDir(${JSON.stringify(dataDir)}); console.log('locked'); process.stdin.resume(); await new Promise((done) => process.stdin.once('end', done)); }
catch (error) { console.log(error.message.startsWith('Another storefront') ? 'refused' : 'error: ' + error.message); }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  const outcome = new Promise<string>((done) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) done(output.trim());
    });
    void exited.then(() => done(output.trim()));
  });
  return {
    outcome,
    release: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** A pid that no process has: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

describe('one app per data directory', () => {
  it('lets exactly one of two simultaneous starts take a free or stale data directory, every round', async () => {
    const stale = await deadPid();
    // 16 rounds here; `LOCK_ROUNDS=100` for the longer check by hand.
    const rounds = Number(process.env.LOCK_ROUNDS ?? 16);
    for (let round = 0; round < rounds; round += 1) {
      const dataDir = await mkdtemp(join(tmpdir(), 'storefront-lock-'));
      dirs.push(dataDir);
      if (round % 2 === 1) await writeFile(join(dataDir, 'storefront.pid'), `${stale}\n`);
      const contenders = [contender(dataDir), contender(dataDir), contender(dataDir)];
      const outcomes = await Promise.all(contenders.map((one) => one.outcome));
      await Promise.all(contenders.map((one) => one.release()));
      expect(outcomes.sort(), `round ${round}`).toEqual(['locked', 'refused', 'refused']);
    }
  }, 600_000);
});
