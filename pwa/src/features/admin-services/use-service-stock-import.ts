import { useState, type ChangeEvent, type FormEvent } from 'react';
import {
  SERVICE_STOCK_IMPORT_MAX_CHARS,
  type ServiceStockImportPreview,
  type ServiceStockImportRow,
  type ServiceStockImportSplit,
  type ServiceStockKind,
} from '../../../../edge-api/src/contract/service-stocks.ts';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode, isRefusal } from '../../lib/app-error.ts';
import { splitOutRows } from './import-rows.ts';

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The text to import and its preview: the preview is of the text (and split) as sent; a change asks for a new one. */
function useImportDraft() {
  const [text, setText] = useState('');
  const [split, setSplit] = useState<ServiceStockImportSplit>('blocks');
  const [preview, setPreview] = useState<{ key: string; answer: ServiceStockImportPreview } | null>(null);
  const [refused, setRefused] = useState<ServiceStockImportRow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const key = `${split}\n${text}`;
  const current = preview?.key === key ? preview.answer : null;

  const changeText = (value: string) => {
    setText(value);
    setRefused(null);
    setProblem(null);
  };
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > SERVICE_STOCK_IMPORT_MAX_CHARS * 4) {
      setProblem(`This file is too large: an import holds at most ${SERVICE_STOCK_IMPORT_MAX_CHARS.toLocaleString('en')} characters.`);
      return;
    }
    changeText(await file.text());
  };
  return { text, setText, split, setSplit, key, preview, setPreview, current, refused, setRefused, problem, setProblem, changeText, readFile };
}

/**
 * A service stock import (decision 075): Preview sends the text for the server to check, writing nothing;
 * Import adds every row or none, under one id per import (a retry after a lost answer never adds twice).
 */
export function useServiceStockImport(serviceId: string, kind: ServiceStockKind, online: boolean, onImported: (count: number) => Promise<void> | void) {
  const toast = useToast();
  const draft = useImportDraft();
  const { text, split, current, setProblem, setRefused, setPreview } = draft;
  const [override, setOverride] = useState(false);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [importId, setImportId] = useState(() => crypto.randomUUID());
  const blocked = current ? current.counts.invalid > 0 : true;
  const needsOverride = (current?.counts.duplicates ?? 0) > 0;
  const splitBody = kind === 'lines' ? { split } : {};

  const askPreview = async (event: FormEvent) => {
    event.preventDefault();
    if (!online) return;
    if (!text.trim()) return setProblem('Paste the rows or choose a file first.');
    setBusy('preview');
    setProblem(null);
    setRefused(null);
    try {
      const answer = await unwrap(api['service-stocks'].preview.$post({ json: { serviceId, text, ...splitBody } }));
      setPreview({ key: draft.key, answer });
      setOverride(false);
    } catch (error) {
      setProblem(isRefusal(error) ? error.message : 'The preview failed. Check your connection and try again.');
    } finally {
      setBusy(null);
    }
  };

  /**
   * Imports every row, or with `goodOnly` the rows without a problem that blocks them (decision 198): the
   * rows left out stay in the box, numbered, to fix and import next.
   */
  const runImport = async (goodOnly = false) => {
    if (!current || (blocked && !goodOnly) || !online) return;
    if (needsOverride && !override) {
      return setProblem('Some rows are already in stock or delivered: tick "Add them anyway" to import them, or remove them and preview again.');
    }
    const invalidRows = current.rows.filter((row) => row.problems.some((found) => !found.overridable));
    const { kept, left } = goodOnly ? splitOutRows(text, invalidRows, kind, split) : { kept: text, left: '' };
    setBusy('import');
    setProblem(null);
    let imported: number | null = null;
    try {
      const result = await unwrap(
        api['service-stocks'].batch.$post({ json: { id: importId, serviceId, text: kept, ...splitBody, ...(override && { overrideDuplicates: true }) } }),
      );
      toast.success(`${plural(result.imported, 'item')} imported.${left ? ` Left out, to fix in the box: ${plural(invalidRows.length, 'row')}.` : ''}`, 6000);
      draft.setText(left);
      setPreview(null);
      setOverride(false);
      setImportId(crypto.randomUUID());
      imported = result.imported;
    } catch (error) {
      // Stock changed since the preview: the server's answer lists the rows at fault; nothing was imported.
      const rows = hasCode(error, 'bad_request', 'duplicate_credentials') ? (error.details as { rows?: ServiceStockImportRow[] } | undefined)?.rows : undefined;
      if (rows) {
        setRefused(rows);
        setPreview(null);
      }
      setProblem(isRefusal(error) ? error.message : 'The import failed. Check your connection and try again: it will not be imported twice.');
    } finally {
      setBusy(null);
    }
    // The import is done once the server has answered: reading the stock list again (slow on a loaded device)
    // never holds the form, so the rows left in the box can be fixed and previewed at once.
    if (imported !== null) await onImported(imported);
  };

  const importable = current ? current.counts.ok + current.counts.duplicates : 0;
  /** Rows a preview found that cannot be imported as they are. */
  const invalid = current?.counts.invalid ?? 0;
  return { ...draft, online, override, setOverride, busy, blocked, needsOverride, importable, invalid, askPreview, runImport };
}
