import { useId, useState, type FormEvent } from 'react';
import { DELIVERY_FILE_MAX_MEGABYTES, deliveryLines, serverLogin, splitLines, type OtherDeliveryKind } from '../../../../edge-api/src/contract/deliveries.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { finishQueuedChange } from '../../components/finish-queued-change.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import type { OtherDelivery } from '../../db/mutators.ts';
import { deliverOrder } from '../../db/mutations.ts';
import { unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { checkWith } from '../../lib/form-problems.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { getAccessToken } from '../../lib/supabase.ts';
import { confirmDeliveryChange } from './delivery-change-confirm.ts';
import { FileField, LinesField, ServerFields, StockChoice, type ServerLoginDraft, type UploadedFile } from './other-delivery-fields.tsx';
import { useOwnStockOfKind } from './use-available-stocks.ts';

export const KIND_DELIVERED_MESSAGE = 'Order delivered.';
const SAVED_OFFLINE_MESSAGE = 'Saved on this device: the delivery will be sent when the connection returns.';

const titles: Record<OtherDeliveryKind, string> = { server: 'Server Login', lines: 'Lines', file: 'File' };

/** What staff see of a delivery of another kind in the order list: never a secret. */
export function deliverySummary(order: Order): string {
  if (order.deliveryKind === 'server') return `Server: ${order.serverUser ?? ''}@${order.serverHost ?? ''}:${order.serverPort ?? ''}`;
  if (order.deliveryKind === 'lines') return order.deliveryLineCount === undefined ? 'Lines' : `Lines: ${order.deliveryLineCount}`;
  if (order.deliveryKind === 'file') return `File: ${order.deliveryFile?.name ?? ''}`;
  return '';
}

/** POST /api/uploads kind `delivery`: the finished document, stored privately (decision 069). */
async function uploadDeliveryFile(file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.set('kind', 'delivery');
  form.set('file', file);
  const token = await getAccessToken();
  return unwrap<UploadedFile>(fetch('/api/uploads', { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} }));
}

export interface OtherDeliveryModalProps {
  kind: OtherDeliveryKind;
  order: Order;
  userId: string;
  online: boolean;
  onClose: () => void;
  replace?: boolean;
}

/** What is typed or chosen, checked with the API's own rules; any edit clears a duplicate warning (it was for the values as they were). */
function useDeliveryDraft(kind: OtherDeliveryKind, online: boolean) {
  const [server, setServer] = useState<ServerLoginDraft>({ host: '', port: '22', user: '', password: '' });
  const [linesText, setLinesText] = useState('');
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [fromStock, setFromStock] = useState('');
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setDuplicate(null);
    };

  const delivery = (): { value: OtherDelivery | { serviceStockId: string } } | { problem: string } => {
    if (fromStock) return { value: { serviceStockId: fromStock } };
    if (kind === 'server') {
      const login = { host: server.host.trim(), port: Number(server.port), user: server.user.trim(), password: server.password };
      const [problem] = Object.entries(checkWith(serverLogin, login));
      if (problem) return { problem: `${{ host: 'Host', port: 'Port', user: 'User', password: 'Password' }[problem[0]] ?? problem[0]} ${problem[1]}` };
      return { value: { server: login } };
    }
    if (kind === 'lines') {
      const [problem] = Object.entries(checkWith(deliveryLines, linesText.split(/\r?\n/)));
      if (problem) return { problem: `Lines ${problem[1]}` };
      return { value: { lines: splitLines(linesText) } };
    }
    if (!file) return { problem: online ? 'Choose the file to deliver.' : 'Uploading the file needs a connection.' };
    return { value: { file } };
  };

  return {
    server,
    setServer: edit(setServer),
    linesText,
    setLinesText: edit(setLinesText),
    file,
    setFile,
    fromStock,
    setFromStock: edit(setFromStock),
    duplicate,
    setDuplicate,
    delivery,
  };
}

/** The chosen file, uploaded at once (at most DELIVERY_FILE_MAX_MEGABYTES); a refusal is said in `setError`. */
function useFileUpload(setFile: (file: UploadedFile) => void, setError: (error: string | null) => void) {
  const [uploading, setUploading] = useState(false);
  const chooseFile = async (chosen: File | undefined) => {
    setError(null);
    if (!chosen) return;
    if (chosen.size > DELIVERY_FILE_MAX_MEGABYTES * 1024 * 1024) {
      setError(`The file is too large: at most ${DELIVERY_FILE_MAX_MEGABYTES} MB.`);
      return;
    }
    setUploading(true);
    try {
      setFile(await uploadDeliveryFile(chosen));
    } catch (cause) {
      setError(`Failed to upload the file: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      setUploading(false);
    }
  };
  return { uploading, chooseFile };
}

type Draft = ReturnType<typeof useDeliveryDraft>;

/** Checks, asks before replacing what the customer sees, queues the delivery and says how it went. */
function useSubmitDelivery({ kind, order, userId, onClose, replace }: OtherDeliveryModalProps, draft: Draft, setError: (error: string | null) => void) {
  const toast = useToast();
  const confirm = useConfirm();
  const [submitting, setSubmitting] = useState(false);
  const { duplicate, setDuplicate } = draft;

  return {
    submitting,
    submit: async (event: FormEvent, uploading: boolean) => {
      event.preventDefault();
      if (submitting || uploading) return;
      setError(null);
      const built = draft.delivery();
      if ('problem' in built) {
        setError(built.problem);
        return;
      }
      // A delivery over one the customer already sees: the order and customer are named, and asked about, first (once: not again for "anyway").
      if (!duplicate && !(await confirmDeliveryChange(confirm, order, replace ?? false, `This ${titles[kind].toLowerCase()} replaces what the customer sees.`)))
        return;
      setSubmitting(true);
      const handle = deliverOrder(
        userId,
        {
          orderId: order.id,
          version: order.version,
          ...built.value,
          ...(replace ? { replace: true as const } : {}),
          ...(duplicate ? { overrideDuplicates: true as const } : {}),
        },
        { shown: { orders: [order], stocks: [] } },
      );
      try {
        await finishQueuedChange(userId, handle, { toast, confirmed: KIND_DELIVERED_MESSAGE, savedOffline: SAVED_OFFLINE_MESSAGE, close: onClose });
      } catch (cause) {
        if (hasCode(cause, 'duplicate_credentials'))
          setDuplicate(`${cause instanceof Error ? cause.message.replace(/ Send overrideDuplicates.*$/, '') : 'Already delivered.'} Deliver it anyway?`);
        else setError(`Failed to update order: ${cause instanceof Error ? cause.message : String(cause)}`);
      } finally {
        setSubmitting(false);
      }
    },
  };
}

/**
 * 'Deliver Server Login', 'Deliver Lines', 'Deliver File' (decision 069): the delivery of a service that
 * delivers something other than an account. Checked with the API's own rules before it is queued; a
 * password or line already delivered or in stock is refused by the server with a warning, and sent again
 * only by an explicit 'Override & Deliver'.
 */
export function OtherDeliveryModal(props: OtherDeliveryModalProps) {
  const { kind, order, online, onClose, replace = false } = props;
  const ids = { host: useId(), port: useId(), user: useId(), lines: useId(), file: useId(), banner: useId() };
  const [error, setError] = useState<string | null>(null);
  const stock = useOwnStockOfKind(order.productId, kind);
  const draft = useDeliveryDraft(kind, online);
  const { uploading, chooseFile } = useFileUpload(draft.setFile, setError);
  const { submitting, submit } = useSubmitDelivery(props, draft, setError);
  const { duplicate, fromStock } = draft;

  return (
    <ModalDialog title={`${replace ? 'Replace' : 'Deliver'} ${titles[kind]}`} onClose={onClose} busy={submitting} className="max-w-2xl">
      <p className="mb-4 text-sm text-base-content/80">
        Order <span className="font-mono">#{shortOrderId(order.id)}</span>: {order.title} for {order.userName || order.userEmail}
      </p>
      {replace && <p className="mb-4 rounded-box bg-base-200 p-3 text-sm">The current delivery stays in the order&apos;s history.</p>}
      <form noValidate onSubmit={(event) => void submit(event, uploading)} aria-describedby={duplicate ? ids.banner : undefined}>
        {duplicate && (
          <div id={ids.banner} role="alert" className="alert alert-warning mb-4">
            <div>
              <p className="font-semibold">Duplicate detected</p>
              <p className="text-sm">{duplicate}</p>
            </div>
          </div>
        )}
        {stock && stock.length > 0 && <StockChoice stock={stock} value={fromStock} onChange={draft.setFromStock} typedChoice="Type it in below" />}
        {kind === 'server' && !fromStock && <ServerFields ids={ids} draft={draft.server} onChange={draft.setServer} />}
        {kind === 'lines' && !fromStock && <LinesField id={ids.lines} text={draft.linesText} onChange={draft.setLinesText} />}
        {kind === 'file' && (
          <FileField
            id={ids.file}
            file={draft.file}
            online={online}
            uploading={uploading}
            onChoose={(file) => void chooseFile(file)}
            onRemove={() => draft.setFile(null)}
          />
        )}
        {!online && kind !== 'file' && (
          <p className="mb-3 text-sm text-base-content/70">Offline: the delivery is saved on this device and sent when the connection returns.</p>
        )}
        {error && (
          <p role="alert" className="alert alert-error mb-3 text-sm">
            {error}
          </p>
        )}
        <ModalFormActions
          onCancel={onClose}
          busy={submitting}
          submitLabel={duplicate ? 'Override & Deliver' : 'Approve & Deliver'}
          submitDisabled={uploading}
          tone={duplicate ? 'danger' : 'primary'}
        />
      </form>
    </ModalDialog>
  );
}
