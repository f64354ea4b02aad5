import { useId, useRef, useState } from 'react';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import { mergeProblem, mergeRates, parseRatesFile, rowChange, type ParsedRates } from './currency-rates-file.ts';

interface Preview {
  fileName: string;
  parsed: ParsedRates;
  /** How many rows with errors the admin dropped. */
  dropped: number;
}

/** The file's rows before they reach the list: each good row with what it changes, each bad one with its line and why. */
function PreviewTable({ preview, current }: { preview: Preview; current: readonly DisplayCurrency[] }) {
  const rows = [
    ...preview.parsed.rows.map((row) => ({ line: row.line, code: row.code, rate: String(row.rate), note: rowChange(current, row), bad: false })),
    ...preview.parsed.problems.map((problem) => ({ line: problem.line, code: '', rate: problem.text, note: problem.message, bad: true })),
  ].sort((a, b) => a.line - b.line);
  return (
    <div className="overflow-x-auto">
      <table className="table table-sm">
        <caption className="sr-only">Rates in {preview.fileName}</caption>
        <thead className="text-base-content">
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Code</th>
            <th scope="col">Rate</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.line}-${row.code}-${row.rate}`} className={row.bad ? 'text-error' : undefined}>
              <td>{row.line}</td>
              <td>{row.code}</td>
              <td className="break-all">{row.rate}</td>
              <td>{row.bad ? `Error: ${row.note}` : row.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the preview says above its table: how many rows can be used, and each bad row by its line. */
function PreviewSummary({ preview, tooMany }: { preview: Preview; tooMany: string | null }) {
  const { rows, problems } = preview.parsed;
  return (
    <div role="status" className="space-y-1 text-sm">
      <p>
        {preview.fileName}: {rows.length === 1 ? '1 rate' : `${rows.length} rates`} to use
        {problems.length > 0 && `, ${problems.length === 1 ? '1 row' : `${problems.length} rows`} with errors`}
        {preview.dropped > 0 && ` (${preview.dropped} dropped)`}. Nothing is saved until you use them and save the settings.
      </p>
      {problems.length > 0 && (
        <ul className="list-inside list-disc text-error">
          {problems.map((problem) => (
            <li key={problem.line}>
              Line {problem.line}: {problem.message}
            </li>
          ))}
        </ul>
      )}
      {tooMany && <p className="text-error">{tooMany}</p>}
    </div>
  );
}

/** Use the rates (only with no bad row left), drop the bad rows, or cancel. */
function PreviewActions({
  preview,
  usable,
  onUse,
  onDrop,
  onCancel,
}: {
  preview: Preview;
  usable: boolean;
  onUse: () => void;
  onDrop: () => void;
  onCancel: () => void;
}) {
  const bad = preview.parsed.problems.length;
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn btn-primary btn-sm" disabled={!usable} onClick={onUse}>
        Use These Rates
      </button>
      {bad > 0 && (
        <button type="button" className="btn btn-outline btn-sm" onClick={onDrop}>
          Drop {bad === 1 ? 'the row' : `the ${bad} rows`} with errors
        </button>
      )}
      <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
        Cancel Import
      </button>
    </div>
  );
}

/**
 * Import rates from a file (decision 241): CSV `code,rate` lines or a JSON object of code to rate, read
 * on the device and previewed; bad rows are named by their line, and the rows go to the list only with
 * none left (the admin may drop them). The settings are saved as usual afterwards.
 */
export function CurrencyRatesImport({ current, onApply }: { current: readonly DisplayCurrency[]; onApply: (next: DisplayCurrency[]) => void }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const read = async (file: File | undefined) => {
    setDone(null);
    if (!file) return setPreview(null);
    setPreview({ fileName: file.name, parsed: parseRatesFile(await file.text(), file.name), dropped: 0 });
  };
  const close = (message: string | null) => {
    setPreview(null);
    setDone(message);
    if (fileRef.current) fileRef.current.value = '';
  };
  const tooMany = preview ? mergeProblem(current, preview.parsed.rows) : null;
  const usable = preview !== null && !preview.parsed.fileError && preview.parsed.problems.length === 0 && preview.parsed.rows.length > 0 && !tooMany;

  return (
    <div className="space-y-3 rounded-box border border-base-300 p-3">
      <div>
        <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium">
          Import rates from a file
        </label>
        <input
          id={`${id}-file`}
          ref={fileRef}
          type="file"
          accept=".csv,.json,.txt,text/csv,application/json,text/plain"
          className="file-input file-input-sm w-full max-w-md"
          aria-describedby={`${id}-file-hint`}
          onChange={(event) => void read(event.target.files?.[0])}
        />
        <p id={`${id}-file-hint`} className="mt-1 text-xs text-base-content/80">
          CSV with a <code>code,rate</code> line each (EUR,0.92), or JSON such as {'{"EUR": 0.92, "GBP": 0.79}'}; rates per 1 USD. You see the rates before they
          are used.
        </p>
      </div>
      <p role="status" className="text-sm text-success empty:hidden">
        {done}
      </p>
      {preview?.parsed.fileError && (
        <p role="alert" className="text-sm text-error">
          {preview.fileName}: {preview.parsed.fileError}
        </p>
      )}
      {preview && !preview.parsed.fileError && (
        <section aria-label={`Rates from ${preview.fileName}`} className="space-y-3">
          <PreviewSummary preview={preview} tooMany={tooMany} />
          <PreviewTable preview={preview} current={current} />
          <PreviewActions
            preview={preview}
            usable={usable}
            onUse={() => {
              onApply(mergeRates(current, preview.parsed.rows));
              const count = preview.parsed.rows.length;
              close(
                `${count === 1 ? '1 rate' : `${count} rates`} from ${preview.fileName} ${count === 1 ? 'is' : 'are'} in the list: Save Settings to keep them.`,
              );
            }}
            onDrop={() => setPreview({ ...preview, parsed: { rows: preview.parsed.rows, problems: [] }, dropped: preview.parsed.problems.length })}
            onCancel={() => close(null)}
          />
        </section>
      )}
    </div>
  );
}
