/**
 * Amounts as whole micro-units (10^-6) in a bigint: USDT has six decimals on TRON, and no float ever
 * rounds a payment. Text in and out, to the last digit.
 */
export const MICRO = 1_000_000n;

/** "30.5" -> 30_500_000n; undefined for anything that is not a plain non-negative decimal of at most six places. */
export function toMicro(text: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * MICRO + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** A token's smallest units (TRC20 `value`, with its decimals) as micro-units, cut below a micro-unit. */
export function unitsToMicro(value: string, decimals: number): bigint | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const units = BigInt(value);
  return decimals >= 6 ? units / 10n ** BigInt(decimals - 6) : units * 10n ** BigInt(6 - decimals);
}

/** 30_000_137n -> "30.000137"; with `places`, exactly that many decimals (rounded down: callers round first). */
export function formatMicro(micro: bigint, places = 6): string {
  const whole = micro / MICRO;
  const fraction = (micro % MICRO).toString().padStart(6, '0').slice(0, places);
  return places === 0 ? whole.toString() : `${whole}.${fraction}`;
}

/** Rounds up to a multiple of `step` micro-units (a cent is 10_000n). */
export const roundUp = (micro: bigint, step: bigint) => ((micro + step - 1n) / step) * step;

export const CENT = 10_000n;
