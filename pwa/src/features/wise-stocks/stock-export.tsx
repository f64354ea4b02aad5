import type { StockStatus } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { StockExportButton } from '../../components/stock-export-button.tsx';

export const EXPORT_FAILED_MESSAGE = 'Failed to export Wise stocks.';

export function stockExportUrl(options: { passwords: boolean; status: StockStatus | 'all' }): string {
  const params = new URLSearchParams();
  if (options.passwords) params.set('passwords', 'true');
  if (options.status !== 'all') params.set('status', options.status);
  const query = params.toString();
  return `/api/wise-stocks/export.csv${query ? `?${query}` : ''}`;
}

/** Export of the Wise stock (of the status filtered on) as CSV, for admins; passwords only when ticked and confirmed. */
export function StockExport({ status, online }: { status: StockStatus | 'all'; online: boolean }) {
  return (
    <StockExportButton
      url={(passwords) => stockExportUrl({ passwords, status })}
      secrets="every exported Wise password"
      failedMessage={EXPORT_FAILED_MESSAGE}
      fallbackName={`wise-stocks-${new Date().toISOString().slice(0, 10)}.csv`}
      online={online}
    />
  );
}
