import { useLiveQuery } from 'dexie-react-hooks';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { serviceStockLabel } from '../../../../edge-api/src/contract/service-stocks.ts';
import { useUserDb } from '../../db/hooks.ts';
import {
  DELIVERY_FILE_MAX_MEGABYTES,
  DELIVERY_LINE_MAX,
  DELIVERY_LINES_MAX,
  deliveryLines,
  formatFileSize,
  serverLogin,
  splitLines,
  type OtherDeliveryKind,
} from '../../../../edge-api/src/contract/deliveries.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { finishQueuedChange } from '../../components/finish-queued-change.ts';
import { confirmDeliveryChange } from './delivery-change-confirm.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { useToast } from '../../components/toast.tsx';
import type { OtherDelivery } from '../../db/mutators.ts';
import { deliverOrder } from '../../db/mutations.ts';
import { unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { checkWith } from '../../lib/form-problems.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { getAccessToken } from '../../lib/supabase.ts';

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

interface UploadedFile {
  path: string;
  name: string;
  size: number;
}

/** POST /api/uploads kind `delivery`: the finished document, stored privately (decision 069). */
async function uploadDeliveryFile(file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.set('kind', 'delivery');
  form.set('file', file);
  const token = await getAccessToken();
  return unwrap<UploadedFile>(fetch('/api/uploads', { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} }));
}

function Field({ label, children, id }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

export interface OtherDeliveryModalProps {
  kind: OtherDeliveryKind;
  order: Order;
  userId: string;
  online: boolean;
  onClose: () => void;
  replace?: boolean;
}

/**
 * 'Deliver Server Login', 'Deliver Lines', 'Deliver File' (decision 069): the delivery of a service that
 * delivers something other than an account. Checked with the API's own rules before it is queued; a
 * password or line already delivered or in stock is refused by the server with a warning, and sent again
 * only by an explicit 'Override & Deliver'.
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function OtherDeliveryModal({ kind, order, userId, online, onClose, replace = false }: OtherDeliveryModalProps) {
  const toast = useToast();
  const confirm = useConfirm();
  const ids = { host: useId(), port: useId(), user: useId(), lines: useId(), file: useId(), banner: useId() };
  const [host, setHost] = useState('');
  const [port, setPort] = useState('22');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [linesText, setLinesText] = useState('');
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The service's own stock as synced (decision 072): staff may deliver one of its available items instead of typing.
  const db = useUserDb();
  const stock = useLiveQuery(
    async () =>
      db && kind !== 'file'
        ? (await db.serviceStocks.where('serviceId').equals(order.productId).toArray()).filter((item) => item.status === 'available' && item.kind === kind)
        : [],
    [db, order.productId, kind],
  );
  const [fromStock, setFromStock] = useState('');

  /** Any edit answers a new question: a duplicate warning was for the values as they were. */
  const edit = (change: () => void) => {
    change();
    setDuplicate(null);
  };

  const lineCount = splitLines(linesText).length;

  const delivery = (): { value: OtherDelivery } | { problem: string } => {
    if (kind === 'server') {
      const server = { host: host.trim(), port: Number(port), user: user.trim(), password };
      const [problem] = Object.entries(checkWith(serverLogin, server));
      if (problem) return { problem: `${{ host: 'Host', port: 'Port', user: 'User', password: 'Password' }[problem[0]] ?? problem[0]} ${problem[1]}` };
      return { value: { server } };
    }
    if (kind === 'lines') {
      const lines = linesText.split(/\r?\n/);
      const [problem] = Object.entries(checkWith(deliveryLines, lines));
      if (problem) return { problem: `Lines ${problem[1]}` };
      return { value: { lines: splitLines(linesText) } };
    }
    if (!file) return { problem: online ? 'Choose the file to deliver.' : 'Uploading the file needs a connection.' };
    return { value: { file } };
  };

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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || uploading) return;
    setError(null);
    const built: ReturnType<typeof delivery> | { value: { serviceStockId: string } } = fromStock ? { value: { serviceStockId: fromStock } } : delivery();
    if ('problem' in built) {
      setError(built.problem);
      return;
    }
    // A delivery over one the customer already sees: the order and customer are named, and asked about, first (once: not again for "anyway").
    if (!duplicate && !(await confirmDeliveryChange(confirm, order, replace, `This ${titles[kind].toLowerCase()} replaces what the customer sees.`))) return;
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
  };

  return (
    <ModalDialog title={`${replace ? 'Replace' : 'Deliver'} ${titles[kind]}`} onClose={onClose} busy={submitting} className="max-w-2xl">
      <p className="mb-4 text-sm text-base-content/80">
        Order <span className="font-mono">#{shortOrderId(order.id)}</span>: {order.title} for {order.userName || order.userEmail}
      </p>
      {replace && <p className="mb-4 rounded-box bg-base-200 p-3 text-sm">The current delivery stays in the order&apos;s history.</p>}
      <form noValidate onSubmit={(event) => void submit(event)} aria-describedby={duplicate ? ids.banner : undefined}>
        {duplicate && (
          <div id={ids.banner} role="alert" className="alert alert-warning mb-4">
            <div>
              <p className="font-semibold">Duplicate detected</p>
              <p className="text-sm">{duplicate}</p>
            </div>
          </div>
        )}
        {stock && stock.length > 0 && (
          <Field label="From this service's stock" id={`${ids.host}-stock`}>
            <select id={`${ids.host}-stock`} className="select w-full" value={fromStock} onChange={(e) => edit(() => setFromStock(e.target.value))}>
              <option value="">Type it in below</option>
              {stock.map((item) => (
                <option key={item.id} value={item.id}>
                  {serviceStockLabel(item)}
                </option>
              ))}
            </select>
          </Field>
        )}
        {kind === 'server' && !fromStock && (
          <>
            <div className="grid gap-x-3 sm:grid-cols-[1fr_8rem]">
              <Field label="Host" id={ids.host}>
                <input
                  id={ids.host}
                  className="input w-full"
                  required
                  autoComplete="off"
                  placeholder="vps.example.com"
                  value={host}
                  onChange={(e) => edit(() => setHost(e.target.value))}
                />
              </Field>
              <Field label="Port" id={ids.port}>
                <input
                  id={ids.port}
                  className="input w-full"
                  required
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={65535}
                  value={port}
                  onChange={(e) => edit(() => setPort(e.target.value))}
                />
              </Field>
            </div>
            <Field label="User" id={ids.user}>
              <input id={ids.user} className="input w-full" required autoComplete="off" value={user} onChange={(e) => edit(() => setUser(e.target.value))} />
            </Field>
            <PasswordInput
              label="Password"
              className="mb-3"
              required
              autoComplete="new-password"
              value={password}
              onChange={(e) => edit(() => setPassword(e.target.value))}
            />
          </>
        )}
        {kind === 'lines' && !fromStock && (
          <Field label="Lines (one per line)" id={ids.lines}>
            <textarea
              id={ids.lines}
              className="textarea w-full font-mono"
              rows={8}
              required
              placeholder="host:port:user:password"
              aria-describedby={`${ids.lines}-hint`}
              value={linesText}
              onChange={(e) => edit(() => setLinesText(e.target.value))}
            />
            <p id={`${ids.lines}-hint`} className="mt-1 text-sm text-base-content/70">
              {lineCount} {lineCount === 1 ? 'line' : 'lines'}; at most {DELIVERY_LINES_MAX} lines of {DELIVERY_LINE_MAX} characters. Blank lines are left out.
            </p>
          </Field>
        )}
        {kind === 'file' && (
          <Field label="File to deliver" id={ids.file}>
            {file ? (
              <div className="flex flex-wrap items-center gap-3">
                <span className="font-mono break-all" data-testid="chosen-file">
                  {file.name} ({formatFileSize(file.size)})
                </span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setFile(null)}>
                  Remove file
                </button>
              </div>
            ) : (
              <>
                <input
                  id={ids.file}
                  type="file"
                  className="file-input w-full"
                  disabled={!online || uploading}
                  onChange={(e) => void chooseFile(e.target.files?.[0])}
                />
                <p className="mt-1 text-sm text-base-content/70">
                  {online
                    ? `Any document up to ${DELIVERY_FILE_MAX_MEGABYTES} MB; only this customer and staff can download it.`
                    : 'Uploading the file needs a connection.'}
                </p>
                {uploading && (
                  <p className="mt-1 text-sm" role="status">
                    Uploading file...
                  </p>
                )}
              </>
            )}
          </Field>
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
