import { useId, type ChangeEvent } from 'react';
import {
  SERVICE_STOCK_IMPORT_COLUMNS,
  SERVICE_STOCK_IMPORT_MAX_ROWS,
  type ServiceStockImportRow,
  type ServiceStockImportSplit,
  type ServiceStockKind,
} from '../../../../edge-api/src/contract/service-stocks.ts';
import { NumberedTextarea } from '../../components/numbered-textarea.tsx';
import { plural, useServiceStockImport } from './use-service-stock-import.ts';

export const IMPORT_OFFLINE_MESSAGE = 'Offline: importing needs a connection. Nothing is queued; preview and import once you are back online.';

const formatOf = (kind: ServiceStockKind) =>
  kind === 'lines'
    ? 'Paste the lines. Choose below whether each block of lines between blank lines is one item (one order gets the whole block) or each line is one item.'
    : `One item per line, columns ${SERVICE_STOCK_IMPORT_COLUMNS[kind].join(', ')} (notes optional). A first line naming the columns is read as a header. Commas, semicolons or tabs separate the columns; put a value holding a comma in double quotes.`;

const placeholderOf: Record<ServiceStockKind, string> = {
  account: 'email,password,name\nholder@example.com,Password#1,Account Holder',
  server: 'host,port,user,password\nvps1.example.net,22,root,Password#1',
  lines: '10.0.0.1:3128:user:pass\n10.0.0.2:3128:user:pass',
};

interface SourceProps {
  ids: { text: string; file: string; format: string; split: string };
  kind: ServiceStockKind;
  text: string;
  onText: (text: string) => void;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
  split: ServiceStockImportSplit;
  onSplit: (split: ServiceStockImportSplit) => void;
}

/** Where the rows come from: a file or the text box, and for lines how they split into items. */
function ImportSource({ ids, kind, text, onText, onFile, split, onSplit }: SourceProps) {
  return (
    <>
      <div>
        <label htmlFor={ids.file} className="mb-1 block text-sm font-medium">
          File (.csv or .txt)
        </label>
        <input id={ids.file} type="file" accept=".csv,.txt,text/csv,text/plain" className="file-input w-full" onChange={onFile} />
      </div>
      <div>
        <label htmlFor={ids.text} className="mb-1 block text-sm font-medium">
          {kind === 'lines' ? 'Lines to add' : 'Rows to add'}
        </label>
        <NumberedTextarea
          id={ids.text}
          value={text}
          onChange={onText}
          placeholder={placeholderOf[kind]}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={ids.format}
        />
      </div>
      {kind === 'lines' && (
        <fieldset className="space-y-1 text-sm">
          <legend className="mb-1 font-medium">Each item is</legend>
          <label className="flex items-center gap-2">
            <input type="radio" className="radio radio-sm" name={ids.split} checked={split === 'blocks'} onChange={() => onSplit('blocks')} />A block of lines
            between blank lines
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" className="radio radio-sm" name={ids.split} checked={split === 'lines'} onChange={() => onSplit('lines')} />
            One line
          </label>
        </fieldset>
      )}
    </>
  );
}

/** The rows with problems, one line per problem: from the preview, or those the import refused. */
function ImportProblemsTable({ rows, refused }: { rows: ServiceStockImportRow[]; refused: boolean }) {
  return (
    <div className="max-h-60 overflow-auto rounded-box border border-base-300">
      <table className="table table-sm">
        <caption className="sr-only">{refused ? 'Rows the import refused' : 'Rows with problems'}</caption>
        <thead className="text-base-content">
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Item</th>
            <th scope="col">Field</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {rows.flatMap((row) =>
            row.problems.map((rowProblem, i) => (
              <tr key={`${row.row}-${i}`}>
                <td>{row.row}</td>
                <td className="break-all">{row.label}</td>
                <td>{rowProblem.field}</td>
                <td>{rowProblem.message}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

type ImportState = ReturnType<typeof useServiceStockImport>;

/** What the preview found: a sentence of counts, the rows with problems, and why some block the import. */
function PreviewSummary({ state, ids }: { state: ImportState; ids: { summary: string } }) {
  const { current, refused, preview, importable, invalid } = state;
  const shown = refused ?? current?.rows.filter((row) => row.problems.length > 0) ?? [];
  return (
    <>
      {preview && !current && !refused && <p className="text-sm">The rows changed since the preview: preview them again before importing.</p>}
      {current && (
        <p id={ids.summary} className="text-sm" aria-live="polite">
          Preview: {plural(current.counts.ok, 'row')} ready · {plural(current.counts.duplicates, 'row')} already in stock or delivered ·{' '}
          {plural(current.counts.invalid, 'row')} with problems
        </p>
      )}
      {shown.length > 0 && <ImportProblemsTable rows={shown} refused={refused !== null} />}
      {current && invalid > 0 && (
        <p className="text-sm" data-testid="import-blocked">
          {plural(invalid, 'row')} cannot be imported as {invalid === 1 ? 'it is' : 'they are'}: fix {invalid === 1 ? 'it' : 'them'} in the box above (the
          numbers beside it are the lines named in the table) and preview again
          {importable > 0 ? `, or import the ${plural(importable, 'good row')} now and keep the others in the box to fix.` : '.'}
        </p>
      )}
    </>
  );
}

/** Preview, and Import: every row, or the good rows alone when some cannot be imported as they are (decision 198). */
function ImportActions({ state }: { state: ImportState }) {
  const { current, busy, blocked, importable, invalid } = state;
  const online = state.online;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <button type="submit" className="btn btn-outline" disabled={busy !== null || !online} aria-busy={busy === 'preview' || undefined}>
        {busy === 'preview' && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Preview
      </button>
      {current && invalid > 0 && importable > 0 ? (
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void state.runImport(true)}
          disabled={busy !== null || !online}
          aria-busy={busy === 'import' || undefined}
        >
          {busy === 'import' && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Import the {plural(importable, 'good row')}
        </button>
      ) : (
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void state.runImport()}
          disabled={busy !== null || !online || blocked || importable === 0}
          aria-busy={busy === 'import' || undefined}
        >
          {busy === 'import' && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {current && !blocked ? `Import ${plural(importable, 'item')}` : 'Import'}
        </button>
      )}
    </div>
  );
}

/**
 * Import many items into a service's stock at once (decision 075): paste or choose a file, Preview (the
 * server checks every row by the single add's rules and for duplicates, writing nothing), then Import
 * (all rows or none), or, when some rows cannot be imported, the good rows alone, the others left in the
 * box to fix (decision 198). Online only: a large import is never queued on the device. Its labels avoid the word
 * "import", which holds "port": the add form's Port field keeps a label no other field contains (voice
 * control and label lookups find it alone).
 */
export function ServiceStockImport({
  serviceId,
  kind,
  online,
  onImported,
}: {
  serviceId: string;
  kind: ServiceStockKind;
  online: boolean;
  onImported: (count: number) => Promise<void> | void;
}) {
  const state = useServiceStockImport(serviceId, kind, online, onImported);
  const { current, problem, blocked, needsOverride, override } = state;
  const ids = { title: useId(), text: useId(), file: useId(), format: useId(), problem: useId(), summary: useId(), split: useId() };

  return (
    <section aria-labelledby={ids.title} className="mt-6 border-t border-base-300 pt-4">
      <h3 id={ids.title} className="mb-2 font-semibold">
        Add many at once
      </h3>
      <form noValidate onSubmit={(event) => void state.askPreview(event)} aria-describedby={problem ? ids.problem : undefined} className="space-y-3">
        <p id={ids.format} className="text-sm">
          {formatOf(kind)} At most {SERVICE_STOCK_IMPORT_MAX_ROWS.toLocaleString('en')} items per import.
        </p>
        {kind !== 'lines' && (
          <a
            className="btn btn-sm btn-outline"
            href={`data:text/csv;charset=utf-8,${encodeURIComponent(`${placeholderOf[kind].replace('\n', '\r\n')}\r\n`)}`}
            download={`${kind}-stock-template.csv`}
          >
            Download template
          </a>
        )}
        {!online && <p className="text-sm">{IMPORT_OFFLINE_MESSAGE}</p>}
        <ImportSource
          ids={ids}
          kind={kind}
          text={state.text}
          onText={state.changeText}
          onFile={(event) => void state.readFile(event)}
          split={state.split}
          onSplit={state.setSplit}
        />
        {problem && (
          <p id={ids.problem} role="alert" className="alert alert-error text-sm">
            {problem}
          </p>
        )}
        <PreviewSummary state={state} ids={ids} />
        {current && needsOverride && !blocked && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="checkbox checkbox-sm" checked={override} onChange={(event) => state.setOverride(event.target.checked)} />
            Add them anyway (duplicates of stock or of delivered orders)
          </label>
        )}
        <ImportActions state={state} />
      </form>
    </section>
  );
}
