import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One measured figure of the Workers benchmarks: what, the measurement, its baseline. */
export type Report = (label: string, measured: string, baseline: string) => void;

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // Counted from the state (field 3): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
