import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { RotatePasswordModal, ROTATED_ORDER_MESSAGE } from '../../components/rotate-password-form.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';

export { DUPLICATE_PASSWORD_MESSAGE } from '../../components/rotate-password-form.tsx';

/**
 * Changes a stock's password (decision 064): the order that received the stock shows the new password at
 * once, the old one kept in its history. The new password is typed twice (each entry can be shown) under the
 * account rules, and a sold stock's order and customer are named before anything changes (decision 221).
 */
export function ChangePasswordModal({ stock, buyer, online, onClose }: { stock: WiseStock; buyer: string | null; online: boolean; onClose: () => void }) {
  const toast = useToast();
  const db = useUserDb();
  const send = async (password: string, overrideDuplicates: boolean) => {
    const answer = await unwrap(
      api['wise-stocks'][':id'].password.$post({
        param: { id: stock.id },
        json: { wisePassword: password, version: stock.version, ...(overrideDuplicates ? { overrideDuplicates } : {}) },
      }),
    );
    if (db) await keepOnDevice(db, { stocks: [answer.stock as WiseStock] });
    toast.success(answer.orderId ? ROTATED_ORDER_MESSAGE(answer.orderId) : 'Password changed.');
    onClose();
  };
  const about = (
    <>
      {stock.wiseName} (<span className="break-all">{stock.wiseEmail}</span>){stock.orderId ? ': sold.' : '.'}
    </>
  );
  return <RotatePasswordModal about={about} orderId={stock.orderId} customer={buyer} online={online} onClose={onClose} send={send} />;
}
