import { displayCurrency, MAX_DISPLAY_CURRENCIES, type DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { FieldProblems } from '../../lib/form-problems.ts';

// The admin's display currencies (decision 241): a rate file read into rows, each checked with the
// contract's own rules, named by its line; and the edits of the list in the settings form.

/** A row of a rate file the contract accepts. */
export interface RateRow {
  line: number;
  code: string;
  rate: number;
}

/** A row of a rate file that cannot be used, and why. */
export interface RateProblem {
  line: number;
  /** The row as written (trimmed). */
  text: string;
  message: string;
}

export interface ParsedRates {
  rows: RateRow[];
  problems: RateProblem[];
  /** The file as a whole cannot be read (not JSON, no rows). */
  fileError?: string;
}

const RATE_TEXT = /^\d+(\.\d+)?$/;
const HEADER = /^code\s*[,;\t]\s*rate$/i;

/** One code and rate, checked with the contract: the row, or the first problem ("rate must be more than 0"). */
function checkRow(line: number, text: string, code: string, rate: unknown, seen: Map<string, number>): RateRow | RateProblem {
  const rateValue = typeof rate === 'number' ? rate : typeof rate === 'string' && RATE_TEXT.test(rate.trim()) ? Number(rate.trim()) : Number.NaN;
  const checked = displayCurrency.safeParse({ code, rate: rateValue });
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { line, text, message: `${String(issue.path[0] ?? 'row')} ${issue.message}` };
  }
  const first = seen.get(checked.data.code);
  if (first !== undefined) return { line, text, message: `${checked.data.code} is already on line ${first}` };
  seen.set(checked.data.code, line);
  return { line, ...checked.data };
}

const isProblem = (row: RateRow | RateProblem): row is RateProblem => 'message' in row;

function collect(found: (RateRow | RateProblem)[]): ParsedRates {
  const parsed: ParsedRates = { rows: found.filter((row): row is RateRow => !isProblem(row)), problems: found.filter(isProblem) };
  return found.length === 0 ? { ...parsed, fileError: 'The file holds no rates.' } : parsed;
}

/** CSV: a `code,rate` line each ("EUR,0.92"); blank lines, `#` comments and a `code,rate` header are skipped. */
export function parseRatesCsv(text: string): ParsedRates {
  const seen = new Map<string, number>();
  const found: (RateRow | RateProblem)[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, index) => {
      const row = raw.trim();
      if (row === '' || row.startsWith('#') || (found.length === 0 && HEADER.test(row))) return;
      const parts = row.split(/[,;\t]/).map((part) => part.trim());
      if (parts.length !== 2) found.push({ line: index + 1, text: row, message: 'must be a code and a rate, such as EUR,0.92' });
      else found.push(checkRow(index + 1, row, parts[0]!, parts[1]!, seen));
    });
  return collect(found);
}

/** The line (from 1) where `"key"` first stands in a JSON text. */
function lineOfKey(text: string, key: string): number {
  const at = text.indexOf(JSON.stringify(key));
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

/** JSON: an object of code to rate (`{"EUR": 0.92, "GBP": 0.79}`). */
export function parseRatesJson(text: string): ParsedRates {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { rows: [], problems: [], fileError: `The file is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { rows: [], problems: [], fileError: 'The JSON must be an object of codes and rates, such as {"EUR": 0.92}.' };
  const seen = new Map<string, number>();
  return collect(
    Object.entries(value).map(([code, rate]) => {
      const line = lineOfKey(text, code);
      return checkRow(line, `"${code}": ${JSON.stringify(rate)}`, code, rate, seen);
    }),
  );
}

/** A rate file, read as JSON when named .json or starting with `{`, else as CSV. */
export function parseRatesFile(text: string, fileName = ''): ParsedRates {
  return /\.json$/i.test(fileName) ||
    text
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('{')
    ? parseRatesJson(text)
    : parseRatesCsv(text);
}

/** What a file's rows do to the list: each code's rate replaced, new codes added at the end. */
export function mergeRates(current: readonly DisplayCurrency[], rows: readonly RateRow[]): DisplayCurrency[] {
  const next = current.map((currency) => ({ ...currency }));
  for (const row of rows) {
    const existing = next.find((currency) => currency.code.trim().toUpperCase() === row.code);
    if (existing) existing.rate = row.rate;
    else next.push({ code: row.code, rate: row.rate });
  }
  return next;
}

/** Why a file's rows cannot join the list as a whole (too many currencies), or null. */
export function mergeProblem(current: readonly DisplayCurrency[], rows: readonly RateRow[]): string | null {
  const count = mergeRates(current, rows).length;
  return count > MAX_DISPLAY_CURRENCIES ? `With this file the shop would have ${count} currencies: at most ${MAX_DISPLAY_CURRENCIES}.` : null;
}

/** What a row of the file changes: "new", "was 0.91", "unchanged". */
export function rowChange(current: readonly DisplayCurrency[], row: RateRow): string {
  const existing = current.find((currency) => currency.code.trim().toUpperCase() === row.code);
  if (!existing) return 'new';
  return existing.rate === row.rate ? 'unchanged' : `was ${Number.isNaN(existing.rate) ? 'empty' : existing.rate}`;
}

export const addCurrency = (list: readonly DisplayCurrency[]): DisplayCurrency[] =>
  list.length >= MAX_DISPLAY_CURRENCIES ? [...list] : [...list, { code: '', rate: Number.NaN }];

export const removeCurrency = (list: readonly DisplayCurrency[], index: number): DisplayCurrency[] => list.filter((_, i) => i !== index);

export const setCurrency = (list: readonly DisplayCurrency[], index: number, part: Partial<DisplayCurrency>): DisplayCurrency[] =>
  list.map((currency, i) => (i === index ? { ...currency, ...part } : currency));

/** Errors of the currencies after a removal move with their rows. */
export function shiftCurrencyErrors(errors: FieldProblems, removed: number): FieldProblems {
  const next: FieldProblems = {};
  for (const [path, message] of Object.entries(errors)) {
    const match = /^displayCurrencies\.(\d+)(\..*)?$/.exec(path);
    if (!match) next[path] = message;
    else {
      const index = Number(match[1]);
      if (index < removed) next[path] = message;
      else if (index > removed) next[`displayCurrencies.${index - 1}${match[2] ?? ''}`] = message;
    }
  }
  return next;
}
