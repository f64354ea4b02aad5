import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Logger } from '../lib/logger.ts';

/**
 * Keeps the embedded Postgres server running (decision 193). When the server the app started dies (kill -9
 * of the postmaster, an out-of-memory kill, a PANIC it could not recover from), it is started again on the
 * same cluster: Postgres replays its WAL, so every committed row is there. Meanwhile the API answers 503
 * `unavailable` with Retry-After (db/faults.ts: the socket refuses, then "the database system is starting
 * up"). The first restart is at once; crashes in a row wait longer each time (0.5 s, doubling, at most 30 s),
 * each said in one error line.
 */

/** The wait before the second restart of a series; each further crash in a row doubles it. */
export const FIRST_RESTART_DELAY_MS = 500;
export const MAX_RESTART_DELAY_MS = 30_000;
/** A server that ran this long before it died starts a new series (its wait is the first one again). */
export const STABLE_AFTER_MS = 60_000;

export interface SupervisorOptions {
  /** Starts the server again on the same cluster, same address and password; resolves once it answers. */
  relaunch: () => Promise<ChildProcess>;
  logger: Logger;
  /** The server's log file, named in every line. */
  logFile: string;
  /** Called after each restart that serves again. */
  onRestart?: () => void;
  delays?: { firstMs: number; maxMs: number; stableMs: number };
}

export class ServerSupervisor {
  private child: ChildProcess;
  private stopping = false;
  private recovering: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private startedAt = Date.now();
  private inARow = 0;
  /** Restarts that served again, since the app started. */
  restarts = 0;

  private readonly options: SupervisorOptions;

  constructor(first: ChildProcess, options: SupervisorOptions) {
    this.options = options;
    this.child = first;
    this.watch(first);
  }

  /** The server process now (the watcher shell around the postmaster). */
  get current(): ChildProcess {
    return this.child;
  }

  /** No more restarts: a restart under way is cut short or finished, then the current server is stopped by `stop`. */
  async stop(stopServer: (child: ChildProcess) => Promise<void>): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.recovering;
    await stopServer(this.child);
  }

  private watch(child: ChildProcess) {
    this.child = child;
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (this.stopping || child !== this.child) return;
      this.recovering = this.recover(howItEnded(code, signal)).finally(() => (this.recovering = undefined));
    });
  }

  private async recover(how: string): Promise<void> {
    const { firstMs, maxMs, stableMs } = this.options.delays ?? { firstMs: FIRST_RESTART_DELAY_MS, maxMs: MAX_RESTART_DELAY_MS, stableMs: STABLE_AFTER_MS };
    const lostAt = Date.now();
    if (lostAt - this.startedAt >= stableMs) this.inARow = 0;
    for (;;) {
      this.inARow += 1;
      const delay = this.inARow === 1 ? 0 : Math.min(maxMs, firstMs * 2 ** (this.inARow - 2));
      this.options.logger.error(
        `The embedded Postgres server stopped unexpectedly (${how}); starting it again in ${delay / 1000} s (failure ${this.inARow} in a row); see ${this.options.logFile}.`,
        { event: 'database_restart', failuresInARow: this.inARow, delayMs: delay },
      );
      await this.pause(delay);
      if (this.stopping) return;
      try {
        const child = await this.options.relaunch();
        this.restarts += 1;
        this.watch(child);
        this.options.onRestart?.();
        this.options.logger.warn(`The embedded Postgres server is serving again, ${Date.now() - lostAt} ms after it stopped.`, {
          event: 'database_restarted',
          restarts: this.restarts,
        });
        // Died again while this was logging: its own exit handler has started the next round.
        return;
      } catch (error) {
        how = `it did not start again: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(done, ms);
      this.wake = () => {
        clearTimeout(timer);
        done();
      };
    });
  }
}

/** The watcher shell exits 128 + n when the postmaster is killed by signal n. */
function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  const number = signal ? undefined : (code ?? 0) - 128;
  const name = signal ?? Object.entries(constants.signals).find(([, value]) => value === number)?.[0];
  return name ? `killed by ${name}` : `exit ${code}`;
}
