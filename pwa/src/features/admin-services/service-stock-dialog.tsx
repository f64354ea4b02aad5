import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { LIST_PAGE_MAX } from '../../../../edge-api/src/contract/list-pages.ts';
import type { ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { StockExportButton } from '../../components/stock-export-button.tsx';
import { useToast } from '../../components/toast.tsx';
import { useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { ServiceStockAddForm, type Kind } from './service-stock-add-form.tsx';
import { ServiceStockBatches, useServiceStockBatches } from './service-stock-batches.tsx';
import { ServiceStockImport } from './service-stock-import.tsx';
import { ServiceStockItems } from './service-stock-items.tsx';
import { keepServiceStock } from './service-stock-keep.ts';
import { ServiceStockPasswordModal } from './service-stock-password-modal.tsx';

export { STOCK_DUPLICATE_MESSAGE } from './service-stock-add-form.tsx';

/** The service's items as last synced, newest first, and withdrawing one. */
function useServiceStockItems(serviceId: string) {
  const toast = useToast();
  const db = useUserDb();
  const items = useLiveQuery(
    async () => (db ? (await db.serviceStocks.where('serviceId').equals(serviceId).toArray()).sort((a, b) => b.createdAt.localeCompare(a.createdAt)) : []),
    [db, serviceId],
  );
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const withdraw = async (item: ServiceStock) => {
    setWithdrawing(item.id);
    try {
      const answer = await unwrap(api['service-stocks'][':id'].withdraw.$post({ param: { id: item.id }, json: { version: item.version } }));
      await keepServiceStock(db, [answer]);
      toast.success('Withdrawn from stock.');
    } catch (cause) {
      toast.error(`Failed to withdraw: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      setWithdrawing(null);
    }
  };
  // After an import or a batch withdrawn: the service's newest items as the server has them now (one page of
  // the most a page holds: decision 242), kept without their secrets; the sync it asks for brings the rest.
  const refresh = async () => {
    try {
      await keepServiceStock(db, await unwrap(api['service-stocks'].$get({ query: { serviceId, limit: String(LIST_PAGE_MAX) } })));
    } catch (error) {
      console.warn('Reading the stock after an import failed; the next sync brings it', error);
      requestSync().catch(() => {});
    }
  };
  return { items, withdrawing, withdraw, refresh };
}

function StockCounts({ items, service }: { items: ServiceStock[] | undefined; service: Service }) {
  const available = items?.filter((item) => item.status === 'available').length ?? 0;
  const sold = items?.filter((item) => item.status === 'sold').length ?? 0;
  const withdrawn = (items?.length ?? 0) - available - sold;
  return (
    <p className="mb-3 text-sm" aria-live="polite">
      {available} available · {sold} sold · {withdrawn} withdrawn
      {service.autoDeliver ? ' · delivered automatically when an order is marked paid' : ''}
    </p>
  );
}

/**
 * A service's own stock (decision 072), on the All Services dashboard: its items as last synced, secrets
 * never shown (masked), with Add (one item, or for lines one item per pasted line), Add many (decision 075),
 * and for admins Withdraw, Change password in place and import batches (decision 228) and Export (secrets
 * only on request, audited: decision 198). Changes need a connection: the server seals the secret and
 * checks it for duplicates first.
 */
export function ServiceStockDialog({ service, online, onClose }: { service: Service; online: boolean; onClose: () => void }) {
  const kind = (service.deliveryKind ?? 'account') as Kind;
  const { items, withdrawing, withdraw, refresh } = useServiceStockItems(service.id);
  const batches = useServiceStockBatches(service.id, online);
  const [rotating, setRotating] = useState<ServiceStock | null>(null);
  const { can } = useAuthorization();
  const admin = can('services:manage');
  const afterImport = async () => {
    await Promise.all([refresh(), batches.reload()]);
  };

  return (
    <ModalDialog title={`Stock: ${service.title}`} onClose={onClose} className="max-w-2xl">
      <StockCounts items={items} service={service} />
      {admin && (items?.length ?? 0) > 0 && (
        <div className="mb-3">
          <StockExportButton
            url={(passwords) => `/api/service-stocks/export.csv?serviceId=${encodeURIComponent(service.id)}${passwords ? '&passwords=true' : ''}`}
            secrets={kind === 'lines' ? "every item's lines" : "every item's password"}
            failedMessage="Failed to export this service's stock."
            fallbackName={`service-stock-${kind}.csv`}
            online={online}
          />
        </div>
      )}
      <ServiceStockItems
        items={items}
        online={online}
        canManage={admin}
        busy={withdrawing !== null}
        onWithdraw={(item) => void withdraw(item)}
        onChangePassword={setRotating}
      />
      <ServiceStockAddForm serviceId={service.id} kind={kind} online={online} onDone={onClose} />
      {admin && <ServiceStockImport serviceId={service.id} kind={kind} online={online} onImported={afterImport} />}
      <ServiceStockBatches state={batches} canManage={admin} online={online} onWithdrawn={() => void refresh()} />
      {rotating && <ServiceStockPasswordModal item={rotating} online={online} onClose={() => setRotating(null)} />}
    </ModalDialog>
  );
}
