import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { importLineStatuses, STOCK_IMPORT_TEMPLATE, type ImportPreview } from '../../../../edge-api/src/contract/stock-batches.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { NumberedTextarea } from '../../components/numbered-textarea.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { isRefusal } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { useGoBack } from '../../lib/use-go-back.ts';
import { defaultBatchLabel, importedMessage, lineStatusBadge, lineStatusLabels } from './import-lines.ts';
import { STOCKS_PATH } from './stock-paths.ts';

/** Import Wise Stock (/dashboard/import-wise-stocks): many stocks at once, previewed line by line first. */
export function ImportStockPage() {
  const { can } = useAuthorization();
  if (!can('stocks:manage')) {
    return (
      <NoAccess
        screen="Import Wise Stock"
        message="You do not have permission to access this data. Wise stocks are imported by admins; you can read them in the list."
      >
        <Link to={STOCKS_PATH} className="btn btn-primary">
          Back to Stocks
        </Link>
      </NoAccess>
    );
  }
  return <ImportStockForm />;
}

const templateHref = `data:text/csv;charset=utf-8,${encodeURIComponent(STOCK_IMPORT_TEMPLATE)}`;

/** The import's state: the label, the lines, the preview of them as sent, and the preview and import requests. */
function useStockImport(labelId: string) {
  const toast = useToast();
  const [label, setLabel] = useState(() => defaultBatchLabel());
  const [text, setText] = useState('');
  // The preview is of the text as it was sent; changing the text asks for a new one.
  const [preview, setPreview] = useState<{ text: string; answer: ImportPreview } | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // One id per import: a retry after a lost answer is refused rather than imported twice.
  const [importId, setImportId] = useState(() => crypto.randomUUID());
  const current = preview?.text === text ? preview.answer : null;
  const newCount = current?.counts.new ?? 0;

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    setProblem(null);
  };

  const askPreview = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setProblem('Paste lines or choose a CSV file first.');
      return;
    }
    setBusy('preview');
    setProblem(null);
    try {
      const answer = await unwrap(api['stock-batches'].preview.$post({ json: { text } }));
      setPreview({ text, answer });
    } catch (error) {
      setProblem(isRefusal(error) ? error.message : 'The preview failed. Check your connection and try again.');
    } finally {
      setBusy(null);
    }
  };

  const runImport = async () => {
    if (!current || newCount === 0) return;
    if (!label.trim()) {
      setProblem('Give the batch a label.');
      document.getElementById(labelId)?.focus();
      return;
    }
    setBusy('import');
    setProblem(null);
    try {
      const result = await unwrap(api['stock-batches'].$post({ json: { id: importId, label: label.trim(), text } }));
      toast.success(importedMessage(result.batch.itemCount, result.batch.label), 4000);
      requestSync().catch(() => {});
      setText('');
      setPreview(null);
      setLabel(defaultBatchLabel());
      setImportId(crypto.randomUUID());
    } catch (error) {
      setProblem(isRefusal(error) ? error.message : 'The import failed. Check your connection and try again.');
    } finally {
      setBusy(null);
    }
  };

  return { label, setLabel, text, setText, preview, current, newCount, busy, problem, readFile, askPreview, runImport };
}

type StockImport = ReturnType<typeof useStockImport>;
type ImportIds = Record<'label' | 'text' | 'file' | 'format' | 'problem' | 'summary', string>;

function ImportStockForm() {
  usePageTitle('Import Wise Stock');
  const goBack = useGoBack(STOCKS_PATH);
  const { online } = useSyncStatus();
  const ids = { label: useId(), text: useId(), file: useId(), format: useId(), problem: useId(), summary: useId() };
  const state = useStockImport(ids.label);
  const { preview, current, problem } = state;

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Import Wise Stock</h1>
          <p className="text-base-content/70">Add many Wise accounts at once: preview every line, then import the new ones as one batch.</p>
        </div>
        <button type="button" className="btn btn-ghost" onClick={goBack}>
          <span aria-hidden="true">←</span> Back
        </button>
      </header>

      <form
        noValidate
        onSubmit={(event) => void state.askPreview(event)}
        className="card bg-base-100 shadow-sm"
        aria-describedby={problem ? ids.problem : undefined}
      >
        <div className="card-body gap-4">
          <FormatSection id={ids.format} />

          {!online && <p className="text-sm text-base-content/70">Offline: the preview and the import need a connection.</p>}
          {problem && (
            <p id={ids.problem} role="alert" className="alert alert-error text-sm">
              {problem}
            </p>
          )}

          <ImportFields ids={ids} state={state} />
          <ImportActions state={state} online={online} />
        </div>
      </form>

      {preview && !current && <p className="text-sm text-base-content/70">The lines changed since the preview: preview them again before importing.</p>}
      {current && <PreviewSection id={ids.summary} preview={current} />}
    </div>
  );
}

function FormatSection({ id }: { id: string }) {
  return (
    <section id={id} className="space-y-2 text-sm">
      <h2 className="text-lg font-semibold">Format</h2>
      <p>
        One account per line: <code>email, password, name, notes</code> (notes optional). A first line naming the columns is read as a header, and its columns
        may come in any order. Commas, semicolons or tabs separate the columns; put a value holding a comma in double quotes.
      </p>
      <a className="btn btn-sm btn-outline" href={templateHref} download="wise-stock-template.csv">
        Download template
      </a>
    </section>
  );
}

function ImportFields({ ids, state }: { ids: ImportIds; state: StockImport }) {
  return (
    <>
      <div>
        <label htmlFor={ids.label} className="label mb-1 block text-sm font-medium text-base-content">
          Batch label{' '}
          <span aria-hidden="true" className="text-error">
            *
          </span>
        </label>
        <input
          id={ids.label}
          className="input w-full"
          value={state.label}
          onChange={(event) => state.setLabel(event.target.value)}
          required
          maxLength={200}
          autoComplete="off"
        />
      </div>
      <div>
        <label htmlFor={ids.file} className="label mb-1 block text-sm font-medium text-base-content">
          File (.csv or .txt)
        </label>
        <input
          id={ids.file}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          className="file-input w-full"
          onChange={(event) => void state.readFile(event)}
        />
      </div>
      <div>
        <label htmlFor={ids.text} className="label mb-1 block text-sm font-medium text-base-content">
          Lines to import
        </label>
        <NumberedTextarea
          id={ids.text}
          heightClass="h-48"
          value={state.text}
          onChange={state.setText}
          placeholder="holder@example.com,Password#1,Account Holder,note"
          spellCheck={false}
          autoComplete="off"
          aria-describedby={ids.format}
        />
      </div>
    </>
  );
}

function ImportActions({ state, online }: { state: StockImport; online: boolean }) {
  const { busy, current, newCount } = state;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <button type="submit" className="btn btn-outline" disabled={busy !== null || !online} aria-busy={busy === 'preview' || undefined}>
        {busy === 'preview' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        Preview
      </button>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => void state.runImport()}
        disabled={busy !== null || !online || newCount === 0}
        aria-busy={busy === 'import' || undefined}
      >
        {busy === 'import' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {current ? `Import ${newCount} new ${newCount === 1 ? 'line' : 'lines'}` : 'Import'}
      </button>
    </div>
  );
}

function PreviewSection({ id, preview }: { id: string; preview: ImportPreview }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        Preview of {preview.lines.length} {preview.lines.length === 1 ? 'line' : 'lines'}
      </h2>
      <ul className="flex flex-wrap gap-2" aria-label="Lines by kind">
        {importLineStatuses.map((status) => (
          <li key={status} className={lineStatusBadge[status]}>
            {lineStatusLabels[status]}: {preview.counts[status]}
          </li>
        ))}
      </ul>
      <div className="overflow-x-auto rounded-box bg-base-100 shadow-sm">
        <table className="table table-sm">
          <caption className="sr-only">Every line of the import and what the preview found</caption>
          <thead className="text-base-content">
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {preview.lines.map((line) => (
              <tr key={line.line}>
                <td>{line.line}</td>
                <td className="break-all">{line.email}</td>
                <td>{line.name}</td>
                <td>
                  <span className={lineStatusBadge[line.status]}>{lineStatusLabels[line.status]}</span>
                  {line.reason && <span className="ml-2 text-sm text-base-content/80">{line.reason}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
