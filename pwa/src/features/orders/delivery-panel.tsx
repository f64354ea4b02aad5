import { useState } from 'react';
import { formatFileSize } from '../../../../edge-api/src/contract/deliveries.ts';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { MaskedSecret } from '../../components/masked-secret.tsx';
import { useDeviceOpened, useSealedValue, VaultDialog } from '../../components/vault-lock.tsx';
import { openDeliveredFile, saveFile } from '../../db/delivered-files.ts';
import { loadDevice, useDeviceQuery } from '../../db/device.ts';
import { api } from '../../lib/api-client.ts';
import { shortOrderId } from '../../lib/order-rules.ts';

const headings = { server: 'Your Server Login', lines: 'Your Lines', file: 'Your File' } as const;

function Row({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  return (
    <div>
      <dt className="text-sm font-semibold">{label}</dt>
      <dd className="mt-1 flex flex-wrap items-center gap-2">
        {secret ? (
          <MaskedSecret label={label.toLowerCase()} value={value} copy={{ label }} />
        ) : (
          <>
            <span className="font-mono break-all">{value}</span>
            <CopyButton value={value} label={label} />
          </>
        )}
      </dd>
    </div>
  );
}

/** The delivered file: downloaded from this device when the sync kept it, from the server otherwise. */
function FileDownload({ order, userId }: { order: Order; userId?: string }) {
  const file = order.deliveryFile!;
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kept = useDeviceQuery(async (device) => (userId ? !!(await device.getUserDb(userId).deliveredFiles.get(order.id)) : false), [userId, order.id]);

  const download = async () => {
    if (!userId) return;
    setProblem(null);
    setBusy(true);
    try {
      const device = await loadDevice();
      saveFile(await openDeliveredFile(device.getUserDb(userId), api, order));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <p className="font-mono break-all" data-testid="delivered-file-name">
        {file.name} <span className="text-sm text-base-content/70">({formatFileSize(file.size)})</span>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button type="button" className="btn btn-primary btn-sm" disabled={busy || !userId} onClick={() => void download()}>
          {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Download<span className="sr-only"> {file.name}</span>
        </button>
        <span className="text-sm text-base-content/70" data-testid="delivered-file-offline">
          {kept ? 'Saved on this device: opens offline too.' : 'Saved on this device after the next sync.'}
        </span>
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-error">
          {problem}
        </p>
      )}
    </div>
  );
}

function LinesList({ lines }: { lines: string[] }) {
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <span className="text-sm">{lines.length === 1 ? '1 line' : `${lines.length} lines`}</span>
        <CopyButton value={lines.join('\n')} label="All lines" />
      </div>
      <ol className="space-y-1">
        {lines.map((line, index) => (
          <li key={`${index}-${line}`} className="flex flex-wrap items-center gap-2">
            <MaskedSecret label={`line ${index + 1}`} value={line} copy={{ label: `Line ${index + 1}`, size: 'xs' }} />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Lines the device's vault keeps sealed as one value (decision 068): shown once opened, after an unlock when locked. */
function SealedLines({ value }: { value: string }) {
  const sealed = useSealedValue(value);
  const [lines, setLines] = useState<string[] | null>(null);
  const [unlocking, setUnlocking] = useState(false);
  const [failed, setFailed] = useState(false);
  const open = async () => {
    setFailed(false);
    try {
      const opened = await sealed.open();
      setLines(Array.isArray(opened) ? opened.map(String) : []);
    } catch (error) {
      console.warn('Could not open the delivered lines', error);
      setFailed(true);
    }
  };
  // Sealed with the device key while the vault is off (decisions 254, 258): opened at once, no PIN to ask for.
  const deviceOpened = useDeviceOpened(value);
  const shown = lines ?? (Array.isArray(deviceOpened) ? deviceOpened.map(String) : null);
  if (shown && !sealed.locked) return <LinesList lines={shown} />;
  if (deviceOpened === undefined) return <p className="text-sm">Opening the lines…</p>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm">The lines are locked on this device.</span>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => (sealed.locked ? setUnlocking(true) : void open())}>
        {sealed.locked ? 'Unlock' : 'Show'}
        <span className="sr-only"> the delivered lines</span>
      </button>
      {unlocking && <VaultDialog mode="unlock" onClose={() => setUnlocking(false)} onDone={() => void open()} />}
      {failed && (
        <span role="alert" className="text-xs text-error">
          Could not show them. Try again.
        </span>
      )}
    </div>
  );
}

/**
 * A delivery other than an account (decision 069): a server login, lines or a file, read from this
 * device's database so it shows offline too, each value with a copy button, secrets masked until shown.
 */
export function DeliveryPanel({ order, userId }: { order: Order; userId?: string }) {
  const kind = order.deliveryKind;
  if (!kind) return null;
  // An array in clear; one sealed string when the device's vault is on (decision 068).
  const lines: unknown = order.deliveryLines;
  return (
    <section className="rounded-box border border-success bg-base-100 p-4" aria-label={`Delivery for ${order.title}, order #${shortOrderId(order.id)}`}>
      <h3 className="mb-3 text-lg font-bold">{headings[kind]}</h3>
      {kind === 'server' && (
        <dl className="space-y-3">
          {order.serverHost && <Row label="Host" value={order.serverHost} />}
          {order.serverPort !== undefined && <Row label="Port" value={String(order.serverPort)} />}
          {order.serverUser && <Row label="User" value={order.serverUser} />}
          {order.serverPassword && <Row label="Password" value={order.serverPassword} secret />}
        </dl>
      )}
      {kind === 'lines' && Array.isArray(lines) && lines.length > 0 && <LinesList lines={lines as string[]} />}
      {kind === 'lines' && typeof lines === 'string' && <SealedLines value={lines} />}
      {kind === 'file' && order.deliveryFile && <FileDownload order={order} userId={userId} />}
      {order.deliverySecretUnreadable && <p className="mt-2 text-sm">This delivery cannot be shown right now. Please contact support.</p>}
    </section>
  );
}
