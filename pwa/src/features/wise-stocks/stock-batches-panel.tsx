import { useId, useState } from 'react';
import type { StockBatch } from '../../../../edge-api/src/contract/stock-batches.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { useToast } from '../../components/toast.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useKeysetPages, type KeysetPages } from '../../lib/list-pages.ts';

/**
 * The import batches, read from the server a page at a time (they are not kept on the device; decision 234);
 * `batches` is null while loading or offline.
 */
export function useStockBatches(online: boolean) {
  const pages = useKeysetPages<StockBatch>((args) => api['stock-batches'].$get(args), online);
  return { ...pages, batches: pages.items };
}

export const withdrawnMessage = (count: number, label: string) => `Withdrew ${count} available ${count === 1 ? 'stock' : 'stocks'} of batch “${label}”`;

/** Import batches under the stock list: label, who, when, how many; admins withdraw what is still available. */
export function StockBatchesPanel({
  batches,
  failed,
  canManage,
  onChanged,
  more,
}: {
  batches: StockBatch[] | null;
  failed: boolean;
  canManage: boolean;
  onChanged: (batch: StockBatch) => void;
  /** The pages: "Load more" while another follows. */
  more: Pick<KeysetPages<StockBatch>, 'hasMore' | 'loading' | 'loadMore'>;
}) {
  const headingId = useId();
  const confirm = useConfirm();
  const toast = useToast();
  const [withdrawing, setWithdrawing] = useState<string | null>(null);

  if (!batches || batches.length === 0) {
    return failed ? <p className="text-sm text-base-content/70">Import batches could not be loaded.</p> : null;
  }

  const withdraw = async (batch: StockBatch) => {
    const confirmed = await confirm({
      title: 'Withdraw this batch?',
      subject: [`Batch “${batch.label}”`, `${batch.availableCount} still available of ${batch.itemCount}`],
      text: 'Its available stocks leave the inventory; sold ones stay as they are.',
      confirmLabel: 'Withdraw available',
      danger: true,
    });
    if (!confirmed) return;
    setWithdrawing(batch.id);
    try {
      const result = await unwrap(api['stock-batches'][':id'].withdraw.$post({ param: { id: batch.id } }));
      onChanged(result.batch);
      toast.success(withdrawnMessage(result.withdrawn, batch.label));
      await requestSync().catch(() => {});
    } catch (error) {
      console.error('Withdrawing a batch failed', error);
      toast.error('Failed to withdraw the batch');
    } finally {
      setWithdrawing(null);
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-2 rounded-box bg-base-100 p-4 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold">
        Import batches
      </h2>
      <ul className="divide-y divide-base-200">
        {batches.map((batch) => (
          <li key={batch.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div>
              <div className="font-medium">{batch.label}</div>
              <div className="text-sm text-base-content/70">
                {batch.itemCount} imported by {batch.userName} on {formatDateTime(batch.createdAt)} · {batch.availableCount} available
                {batch.withdrawnCount > 0 && <> · {batch.withdrawnCount} withdrawn</>}
              </div>
            </div>
            {canManage && batch.availableCount > 0 && (
              <button
                type="button"
                className="btn btn-sm btn-outline btn-error"
                onClick={() => void withdraw(batch)}
                disabled={withdrawing === batch.id}
                aria-label={`Withdraw available stocks of batch ${batch.label}`}
              >
                Withdraw available
              </button>
            )}
          </li>
        ))}
      </ul>
      <LoadMore hasMore={more.hasMore} loading={more.loading} onLoadMore={more.loadMore} what="import batches" />
    </section>
  );
}
