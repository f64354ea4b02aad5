import { useId, useState } from 'react';
import type { StockStatus } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { saveBlobAs } from '../../lib/save-file.ts';
import { getAccessToken } from '../../lib/supabase.ts';

export const EXPORT_FAILED_MESSAGE = 'Failed to export Wise stocks.';

export function stockExportUrl(options: { passwords: boolean; status: StockStatus | 'all' }): string {
  const params = new URLSearchParams();
  if (options.passwords) params.set('passwords', 'true');
  if (options.status !== 'all') params.set('status', options.status);
  const query = params.toString();
  return `/api/wise-stocks/export.csv${query ? `?${query}` : ''}`;
}

const filenameFrom = (disposition: string | null) => disposition?.match(/filename="?([^";]+)"?/i)?.[1] ?? `wise-stocks-${new Date().toISOString().slice(0, 10)}.csv`;

/** Export of the stock (of the status filtered on) as CSV, for admins; passwords only when ticked and confirmed. */
export function StockExport({ status, online }: { status: StockStatus | 'all'; online: boolean }) {
  const checkboxId = useId();
  const toast = useToast();
  const confirm = useConfirm();
  const [passwords, setPasswords] = useState(false);
  const [exporting, setExporting] = useState(false);

  const run = async () => {
    if (passwords) {
      const confirmed = await confirm({
        title: 'Export with passwords?',
        text: 'The file will hold every exported Wise password in plain text. The export is recorded in the audit log.',
        confirmLabel: 'Export with passwords',
        danger: true,
      });
      if (!confirmed) return;
    }
    setExporting(true);
    try {
      const token = await getAccessToken();
      const response = await fetch(stockExportUrl({ passwords, status }), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new Error(`Export failed (${response.status})`);
      saveBlobAs(await response.blob(), filenameFrom(response.headers.get('content-disposition')));
    } catch (error) {
      console.error('Stock export failed', error);
      toast.error(EXPORT_FAILED_MESSAGE);
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
