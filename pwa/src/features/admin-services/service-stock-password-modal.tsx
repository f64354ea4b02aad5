import { useLiveQuery } from 'dexie-react-hooks';
import { serviceStockLabel, type ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import { RotatePasswordModal, ROTATED_ORDER_MESSAGE } from '../../components/rotate-password-form.tsx';
import { useToast } from '../../components/toast.tsx';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { keepServiceStock } from './service-stock-keep.ts';

/**
 * A password change in place for an account or a server login of a service's own stock (decision 228), as
 * Wise stock's: typed twice, and for a sold item the order and its customer (as synced to this device)
 * named before anything changes.
 */
export function ServiceStockPasswordModal({ item, online, onClose }: { item: ServiceStock; online: boolean; onClose: () => void }) {
  const toast = useToast();
  const db = useUserDb();
  const order = useLiveQuery(async () => (db && item.orderId ? ((await db.orders.get(item.orderId)) ?? null) : null), [db, item.orderId]);
  const customer = order ? order.userName || order.userEmail : null;
  const send = async (password: string, overrideDuplicates: boolean) => {
    const answer = await unwrap(
      api['service-stocks'][':id'].password.$post({
        param: { id: item.id },
        json: { password, version: item.version, ...(overrideDuplicates && { overrideDuplicates: true }) },
      }),
    );
    await keepServiceStock(db, [answer.stock]);
    toast.success(answer.orderId ? ROTATED_ORDER_MESSAGE(answer.orderId) : 'Password changed.');
    onClose();
  };
  const about = (
    <>
      <span className="break-all">{serviceStockLabel(item)}</span>
      {item.status === 'sold' ? ': sold.' : '.'}
    </>
  );
  return <RotatePasswordModal about={about} orderId={item.orderId} customer={customer} online={online} onClose={onClose} send={send} />;
}
