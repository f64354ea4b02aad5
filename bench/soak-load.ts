import { percentile } from './load.ts';

// The soak's load generator (bench/soak.ts starts it as a process of its own, so its CPU is not the
// server's): `devices` simulated devices, each pulling GET /api/sync every `pullEveryMs` (a public pull,
// and a private one for the signed-in devices), spread evenly over the interval, while orders are placed
// at `ordersPerSecond` by the signed-in customers. Prints one line of JSON with what it measured.

export interface SoakConfig {
  url: string;
  devices: number;
  seconds: number;
  pullEveryMs: number;
  ordersPerSecond: number;
  /** Tokens of the signed-in devices' customers: device i is signed in when i < tokens.length. */
  tokens: string[];
  productIds: string[];
}

export interface SoakResult {
  pulls: { public: number[]; private: number[] };
  pullErrors: Record<string, number>;
  orders: number[];
  orderErrors: Record<string, number>;
  /** How late a pull started against its schedule (the generator's own lag), p99 ms. */
  lateP99: number;
  seconds: number;
}

/** A device's address, as a proxy in front of the app names it (the app trusts 127.0.0.1 there): one each, as phones have. */
export const deviceAddress = (index: number) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function main() {
  const config = JSON.parse(process.env.SOAK_CONFIG!) as SoakConfig;
  const result: SoakResult = { pulls: { public: [], private: [] }, pullErrors: {}, orders: [], orderErrors: {}, lateP99: 0, seconds: 0 };
  const late: number[] = [];
  const count = (errors: Record<string, number>, key: string) => (errors[key] = (errors[key] ?? 0) + 1);
  const started = performance.now();
  const end = started + config.seconds * 1000;

  const pull = async (index: number, scope: 'public' | 'private', cursor: number, token?: string) => {
    const sent = performance.now();
    const headers: Record<string, string> = { 'x-forwarded-for': deviceAddress(index), ...(token && { authorization: `Bearer ${token}` }) };
    try {
      const response = await fetch(`${config.url}/api/sync?scope=${scope}&cursor=${cursor}`, { headers });
      const body = (await response.json()) as { cursor?: number };
      if (response.status !== 200) {
        count(result.pullErrors, String(response.status));
        return cursor;
      }
      result.pulls[scope].push(performance.now() - sent);
      return body.cursor ?? cursor;
    } catch {
      count(result.pullErrors, 'network');
      return cursor;
    }
  };

  const device = async (index: number) => {
    const token = config.tokens[index];
    const cursors = { public: 0, private: 0 };
    let due = started + (index / config.devices) * config.pullEveryMs;
    while (due < end) {
      await sleep(due - performance.now());
      late.push(performance.now() - due);
      cursors.public = await pull(index, 'public', cursors.public);
      if (token) cursors.private = await pull(index, 'private', cursors.private, token);
      due += config.pullEveryMs;
    }
  };

  const placing: Promise<void>[] = [];
  const orders = async () => {
    if (!config.ordersPerSecond || !config.tokens.length) return;
    const every = 1000 / config.ordersPerSecond;
    for (let n = 0, due = started; due < end; n += 1, due += every) {
      await sleep(due - performance.now());
      const sent = performance.now();
      placing.push(
        fetch(`${config.url}/api/orders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.tokens[n % config.tokens.length]}`,
            'content-type': 'application/json',
            'x-forwarded-for': deviceAddress(n % config.tokens.length),
          },
          body: JSON.stringify({ id: crypto.randomUUID(), productId: config.productIds[n % config.productIds.length] }),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            if (response.status === 201) result.orders.push(performance.now() - sent);
            else count(result.orderErrors, String(response.status));
          },
          () => void count(result.orderErrors, 'network'),
        ),
      );
    }
  };

  await Promise.all([...Array.from({ length: config.devices }, (_, i) => device(i)), orders()]);
  await Promise.all(placing);
  result.seconds = (performance.now() - started) / 1000;
  result.lateP99 = percentile(late, 99);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1]?.endsWith('bench/soak-load.ts')) await main();
