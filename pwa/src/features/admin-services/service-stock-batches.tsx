import { useId, useState } from 'react';
import type { ServiceStockBatch } from '../../../../edge-api/src/contract/service-stock-changes.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { useToast } from '../../components/toast.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useKeysetPages } from '../../lib/list-pages.ts';

/**
 * A service's import batches, read from the server a page at a time (not kept on the device; decision 242);
 * `batches` is null while loading or offline.
 */
export function useServiceStockBatches(serviceId: string, online: boolean) {
  const pages = useKeysetPages<ServiceStockBatch>((args) => api['service-stocks'].batches.$get({ query: { serviceId, ...args.query } }), online);
  return { ...pages, batches: pages.items };
}

export const batchWithdrawnMessage = (count: number, label: string) => `Withdrew ${count} available ${count === 1 ? 'item' : 'items'} of batch “${label}”`;

function BatchLine({ batch, action }: { batch: ServiceStockBatch; action: React.ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
      <div>
        <div className="font-medium">{batch.label}</div>
        <div className="text-base-content/80">
          {batch.itemCount} imported by {batch.userName} on {formatDateTime(batch.createdAt)} · {batch.availableCount} available
          {batch.withdrawnCount > 0 && <> · {batch.withdrawnCount} withdrawn</>}
        </div>
      </div>
      {action}
    </li>
  );
}

type Batches = ReturnType<typeof useServiceStockBatches>;

/**
 * A service's import batches (decision 228), as the Wise stock's: label, who, when, how many; admins
 * withdraw what is still available of one, confirmed first.
 */
export function ServiceStockBatches({
  state,
  canManage,
  online,
  onWithdrawn,
}: {
  state: Batches;
  canManage: boolean;
  online: boolean;
  onWithdrawn: () => void;
}) {
  const headingId = useId();
  const confirm = useConfirm();
  const toast = useToast();
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const { batches, failed } = state;
  if (!batches || batches.length === 0) return failed ? <p className="mt-4 text-sm">Import batches could not be loaded.</p> : null;

  const withdraw = async (batch: ServiceStockBatch) => {
    const confirmed = await confirm({
      title: 'Withdraw this batch?',
      subject: [`Batch “${batch.label}”`, `${batch.availableCount} still available of ${batch.itemCount}`],
      text: 'Its available items leave the stock; sold ones stay with their orders.',
      confirmLabel: 'Withdraw available',
      danger: true,
    });
    if (!confirmed) return;
    setWithdrawing(batch.id);
    try {
      const result = await unwrap(api['service-stocks'].batches[':id'].withdraw.$post({ param: { id: batch.id } }));
      state.replace(result.batch);
      toast.success(batchWithdrawnMessage(result.withdrawn, batch.label));
      onWithdrawn();
      await requestSync().catch(() => {});
    } catch (error) {
      toast.error(`Failed to withdraw the batch: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setWithdrawing(null);
    }
  };

  return (
    <section aria-labelledby={headingId} className="mt-4">
      <h3 id={headingId} className="mb-1 font-semibold">
        Import batches
      </h3>
      <ul className="divide-y divide-base-300">
        {batches.map((batch) => (
          <BatchLine
            key={batch.id}
            batch={batch}
            action={
              canManage &&
              batch.availableCount > 0 && (
                <button
                  type="button"
                  className="btn btn-sm btn-outline btn-error"
                  onClick={() => void withdraw(batch)}
                  disabled={!online || withdrawing === batch.id}
                  aria-label={`Withdraw available items of batch ${batch.label}`}
                >
                  Withdraw available
                </button>
              )
            }
          />
        ))}
      </ul>
      <LoadMore hasMore={state.hasMore} loading={state.loading} onLoadMore={state.loadMore} what="import batches" />
    </section>
  );
}
