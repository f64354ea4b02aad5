import { useId, useState } from 'react';
import { getAccessToken } from '../lib/supabase.ts';
import { saveBlobAs } from '../lib/save-file.ts';
import { useConfirm } from './confirm-dialog.tsx';
import { useToast } from './toast.tsx';

export interface StockExportButtonProps {
  /** The export's address, with or without the secrets. */
  url: (passwords: boolean) => string;
  /** What the file holds in clear with "Include passwords", e.g. "every exported Wise password". */
  secrets: string;
  /** The toast when it fails. */
  failedMessage: string;
  fallbackName: string;
  online: boolean;
}

const filenameFrom = (disposition: string | null, fallback: string) => disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? fallback;

/**
 * Export of a stock as CSV, for admins (the Wise stock and a service's own, decisions 056 and 198): the
 * secrets only when "Include passwords" is ticked and confirmed; the server audits every export.
 */
export function StockExportButton({ url, secrets, failedMessage, fallbackName, online }: StockExportButtonProps) {
  const checkboxId = useId();
  const toast = useToast();
  const confirm = useConfirm();
  const [passwords, setPasswords] = useState(false);
  const [exporting, setExporting] = useState(false);

  const run = async () => {
    if (passwords) {
      const confirmed = await confirm({
        title: 'Export with passwords?',
        text: `The file will hold ${secrets} in plain text. The export is recorded in the audit log.`,
        confirmLabel: 'Export with passwords',
        danger: true,
      });
      if (!confirmed) return;
    }
    setExporting(true);
    try {
      const token = await getAccessToken();
      const response = await fetch(url(passwords), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new Error(`Export failed (${response.status})`);
      saveBlobAs(await response.blob(), filenameFrom(response.headers.get('content-disposition'), fallbackName));
    } catch (error) {
      console.error('Stock export failed', error);
      toast.error(failedMessage);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={checkboxId} className="flex cursor-pointer items-center gap-2 text-sm">
        <input id={checkboxId} type="checkbox" className="checkbox checkbox-sm" checked={passwords} onChange={(event) => setPasswords(event.target.checked)} />
        Include passwords
      </label>
      <button type="button" className="btn btn-outline" onClick={() => void run()} disabled={!online || exporting} aria-busy={exporting || undefined}>
        {exporting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        Export CSV
      </button>
    </div>
  );
}
