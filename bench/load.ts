export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  errors: number;
  /** Milliseconds of each answered request. */
  latencies: number[];
  /** How many answers of each status other than 200 ("network" for none). */
  failures?: Record<string, number>;
}

/** Keeps `connections` requests (Node's fetch keeps connections alive) in flight against `url` for `seconds`, then counts answers. */
export async function load(url: string | (() => string), { connections = 16, seconds = 5, headers = {} as Record<string, string> } = {}): Promise<LoadResult> {
  const deadline = performance.now() + seconds * 1000;
  let requests = 0;
  let errors = 0;
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        const started = performance.now();
        const response = await fetch(typeof url === 'string' ? url : url(), { headers });
        await response.arrayBuffer();
        if (response.status === 200) {
          requests += 1;
          latencies.push(performance.now() - started);
        } else {
          errors += 1;
          failures[response.status] = (failures[response.status] ?? 0) + 1;
        }
      } catch {
        errors += 1;
        failures.network = (failures.network ?? 0) + 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  return { requests, seconds: elapsed, rps: requests / elapsed, errors, latencies, failures };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
