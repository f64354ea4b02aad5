import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { CredentialsCheck, Order, WiseStock } from '../../../../edge-api/src/contract.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { usePendingIds, useUserDb } from '../../db/hooks.ts';
import { deliverOrder, dismissFailed, LocalMutationError } from '../../db/mutations.ts';
import { serverOutcome } from '../../db/server-outcome.ts';
import { api, ApiRequestError, unwrap } from '../../lib/api-client.ts';
import { ImageUploadError, isImageFile, uploadImage, type UploadedImage } from '../../lib/image-upload.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { selectDuplicateWarning } from './duplicate-warning.ts';
import { matchingStocks } from './stock-search.ts';

const CHECK_DELAY_MS = 400;
const STOCK_MATCHES_SHOWN = 6;

export const FILL_BOTH_MESSAGE = 'Please fill in both WISE email and password';
export const DELIVERED_MESSAGE = 'Order updated successfully with WISE credentials!';
const STOCK_TAKEN_MESSAGE = 'This stock account was just taken by another delivery. Choose another one.';

interface CheckResult {
  key: string;
  check: CredentialsCheck;
}

/** Spec: 'Failed to upload image: ' plus the message: the server's own words when it answered, else what went wrong here. */
function uploadFailureText(error: unknown): string {
  if (error instanceof ImageUploadError) return error.cause instanceof ApiRequestError ? error.cause.message : error.problem.text;
  return error instanceof Error ? error.message : String(error);
}

const checkKey = (email: string, password: string) => JSON.stringify([email.trim().toLowerCase(), password]);

function fetchCheck(email: string, password: string, excludeOrderId: string): Promise<CredentialsCheck> {
  const query: { email?: string; password?: string; excludeOrderId: string } = { excludeOrderId };
  if (email.trim()) query.email = email.trim();
  if (password) query.password = password;
  return unwrap(api.admin.credentials.check.$get({ query }));
}

function useAvailableStocks(online: boolean, reloads: number): WiseStock[] | undefined {
  const db = useUserDb();
  const pendingIds = usePendingIds();
  const local = useLiveQuery(() => (db ? db.wiseStocks.where('status').equals('available').toArray() : []), [db]);
  const [remote, setRemote] = useState<WiseStock[]>([]);

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    unwrap(api['wise-stocks'].$get())
      .then((stocks) => {
        if (!cancelled) setRemote(stocks);
      })
      .catch((error: unknown) => console.warn('Could not load Wise stocks from the server; using the synced ones', error));
    return () => {
      cancelled = true;
    };
  }, [online, reloads]);

  return useMemo(() => {
    if (!local) return undefined;
    const byId = new Map<string, WiseStock>();
    for (const stock of [...local, ...remote]) {
      const known = byId.get(stock.id);
      if (!known || known.version < stock.version) byId.set(stock.id, stock);
    }
    // A stock with a queued change (e.g. picked for another delivery on this device) is not offered.
    return [...byId.values()]
      .filter((stock) => stock.status === 'available' && !pendingIds.has(stock.id))
      .sort((a, b) => a.wiseName.localeCompare(b.wiseName));
  }, [local, remote, pendingIds]);
}

export interface CredentialsModalProps {
  order: Order;
  userId: string;
  online: boolean;
  onClose: () => void;
}

/**
 * 'Add WISE Credentials': typed credentials with an optional proof image, or an account from stock.
 * Nothing is saved until 'Approve & Deliver'; closing discards everything.
 */
export function CredentialsModal({ order, userId, online, onClose }: CredentialsModalProps) {
  const toast = useToast();
  const confirm = useConfirm();
  const db = useUserDb();
  const [stockReloads, setStockReloads] = useState(0);
  const stocks = useAvailableStocks(online, stockReloads);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [stock, setStock] = useState<WiseStock | null>(null);
  const [stockSearch, setStockSearch] = useState('');
  const [proof, setProof] = useState<UploadedImage | null>(null);
  const [uploading, setUploading] = useState(false);
  const [check, setCheck] = useState<CheckResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), emailNote: useId(), file: useId(), stockSearch: useId(), banner: useId() };

  const currentKey = checkKey(email, password);
  const warning = selectDuplicateWarning(check?.key === currentKey ? check.check : null);
  const filled = email.trim() !== '' && password !== '';

  // The duplicate check runs on the server while the admin types, once the typing pauses.
  useEffect(() => {
    if (!online || (!email.trim() && !password)) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      fetchCheck(email, password, order.id)
        .then((result) => {
          if (!cancelled) setCheck({ key: checkKey(email, password), check: result });
        })
        .catch((cause: unknown) => console.warn('Duplicate check failed', cause));
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, password, online, order.id]);

  const typeEmail = (value: string) => {
    setEmail(value);
    setStock(null);
  };
  const typePassword = (value: string) => {
    setPassword(value);
    setStock(null);
  };

  const pickStock = (picked: WiseStock) => {
    setStock(picked);
    setEmail(picked.wiseEmail);
    setPassword(picked.wisePassword);
    setProof(null);
    setError(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const clearStock = () => {
    setStock(null);
    setEmail('');
    setPassword('');
  };

  const chooseFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (!isImageFile(file)) {
      setError('Please select an image file (JPG, PNG, WEBP, GIF or HEIC).');
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setUploading(true);
    try {
      setProof(await uploadImage(file, 'proof'));
    } catch (cause) {
      setError(`Failed to upload image: ${uploadFailureText(cause)}`);
      setProof(null);
      if (fileInput.current) fileInput.current.value = '';
    } finally {
      setUploading(false);
    }
  };

  const removeProof = () => {
    setProof(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!filled) {
      setError(FILL_BOTH_MESSAGE);
      return;
    }
    if (uploading || submitting) return;
    setSubmitting(true);
    try {
      // Never deliver on a stale answer: check the values as they are now if the last check was for others.
      let latest = warning;
      if (online && check?.key !== currentKey) {
        try {
          const result = await fetchCheck(email, password, order.id);
          setCheck({ key: currentKey, check: result });
          latest = selectDuplicateWarning(result);
        } catch (cause) {
          console.warn('Duplicate check failed', cause);
        }
      }
      if (latest.needsConfirmation) {
        const confirmed = await confirm({
          title: 'Deliver duplicate credentials?',
          text: 'These exact credentials already exist in another order! Delivering them again will create duplicate credentials.',
          confirmLabel: 'Override & Deliver',
          danger: true,
        });
        if (!confirmed) return;
      }
      if (db) await keepOnDevice(db, { orders: [order], stocks: stock ? [stock] : [] });
      const handle = stock
        ? deliverOrder(userId, { orderId: order.id, version: order.version, stockId: stock.id })
        : deliverOrder(userId, {
            orderId: order.id,
            version: order.version,
            wiseEmail: email.trim(),
            wisePassword: password,
            ...(proof ? { wiseImage: proof.path } : {}),
          });
      try {
        const outcome = await serverOutcome(handle.done);
        if (outcome === 'confirmed') toast.success(DELIVERED_MESSAGE);
        else toast.info('Saved on this device: the delivery will be sent when the connection returns.', 4000);
        onClose();
      } catch (cause) {
        // The form still holds everything, so the refused change is shown here rather than in the failed list.
        await dismissFailed(userId, handle.id).catch(() => undefined);
        const stockTaken =
          (cause instanceof ApiRequestError && cause.code === 'stock_unavailable') ||
          (cause instanceof LocalMutationError && /no longer available|stock not found/i.test(cause.message));
        if (stock && stockTaken) {
          clearStock();
          setStockReloads((n) => n + 1);
          setError(STOCK_TAKEN_MESSAGE);
        } else {
          setError(`Failed to update order: ${cause instanceof Error ? cause.message : String(cause)}`);
        }
      }
    } finally {
      setSubmitting(false);
    }
  };

  const shownStocks = stocks ? matchingStocks(stocks, stockSearch).slice(0, STOCK_MATCHES_SHOWN) : [];
  const emailDescribedBy = warning.emailInline ? ids.emailNote : undefined;

  return (
    <ModalDialog title="Add WISE Credentials" onClose={onClose} className="max-w-3xl">
      <p className="mb-4 text-sm text-base-content/80">
        Order <span className="font-mono">#{shortOrderId(order.id)}</span>: {order.title} for {order.userName || order.userEmail}
        {order.userName && <span className="text-base-content/70"> ({order.userEmail})</span>}
      </p>

      <section aria-labelledby={`${ids.stockSearch}-heading`} className="mb-4 rounded-box border border-base-300 p-3">
        <h3 id={`${ids.stockSearch}-heading`} className="mb-2 font-semibold">
          Deliver from stock
        </h3>
        {stock ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm">
              Using stock account <strong>{stock.wiseName}</strong> ({stock.wiseEmail})
            </p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={clearStock}>
              Type credentials instead
            </button>
          </div>
        ) : (
          <>
            <label htmlFor={ids.stockSearch} className="mb-1 block text-sm font-medium">
              Search available accounts by name or email
            </label>
            <input
              id={ids.stockSearch}
              type="search"
              className="input input-sm w-full"
              value={stockSearch}
              onChange={(event) => setStockSearch(event.target.value)}
              placeholder="Name or email"
            />
            {stocks === undefined ? (
              <p className="mt-2 text-sm text-base-content/70">Loading stock...</p>
            ) : shownStocks.length === 0 ? (
              <p className="mt-2 text-sm text-base-content/70">No available stock accounts{stockSearch.trim() ? ' match this search' : ''}.</p>
            ) : (
              <ul className="mt-2 divide-y divide-base-200" aria-label="Available stock accounts">
                {shownStocks.map((candidate) => (
                  <li key={candidate.id} className="flex items-center justify-between gap-2 py-1.5">
                    <span className="min-w-0 text-sm">
                      <span className="font-medium">{candidate.wiseName}</span>{' '}
                      <span className="break-all text-base-content/70">{candidate.wiseEmail}</span>
                    </span>
                    <button
                      type="button"
                      className="btn btn-outline btn-xs"
                      aria-label={`Use stock account ${candidate.wiseName} (${candidate.wiseEmail})`}
                      onClick={() => pickStock(candidate)}
                    >
                      Use
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>

      <form noValidate onSubmit={(event) => void submit(event)} aria-describedby={warning.title ? ids.banner : undefined}>
        {warning.title && (
          <div id={ids.banner} role="alert" className={`alert mb-4 ${warning.kind === 'exact' ? 'alert-error' : 'alert-warning'}`}>
            <div>
              <p className="font-semibold">{warning.title}</p>
              {warning.lines.map((line) => (
                <p key={line} className="text-sm">
                  {line}
                </p>
              ))}
            </div>
          </div>
        )}
        {!online && (
          <p className="mb-3 text-sm text-base-content/70">
            Offline: duplicate checks and image uploads need a connection. The delivery is saved on this device and sent when the connection returns.
          </p>
        )}

        <div className="mb-3">
          <label htmlFor={ids.email} className="mb-1 block text-sm font-medium">
            WISE Email
          </label>
          <input
            id={ids.email}
            type="email"
            required
            autoComplete="off"
            className={`input w-full ${warning.emailInline ? 'input-warning' : ''}`}
            value={email}
            onChange={(event) => typeEmail(event.target.value)}
            aria-describedby={emailDescribedBy}
          />
          {warning.emailInline && (
            <p id={ids.emailNote} className="mt-1 text-sm text-warning-content">
              {warning.emailInline}
            </p>
          )}
        </div>

        <PasswordInput
          label="WISE Password"
          className="mb-1"
          required
          autoComplete="new-password"
          value={password}
          onChange={(event) => typePassword(event.target.value)}
          hint={warning.passwordInline ?? undefined}
        />

        <div className="mt-3 mb-4">
          <label htmlFor={ids.file} className="mb-1 block text-sm font-medium">
            Proof image (optional)
          </label>
          {stock ? (
            <p className="text-sm text-base-content/70">The stock account's own image is delivered as proof.</p>
          ) : proof ? (
            <div className="flex items-center gap-3">
              <img src={proof.url} alt="Proof image to deliver" className="h-20 w-20 rounded-box border border-base-300 object-cover" />
              <button type="button" className="btn btn-ghost btn-sm" onClick={removeProof}>
                Remove image
              </button>
            </div>
          ) : (
            <>
              <input
                ref={fileInput}
                id={ids.file}
                type="file"
                accept="image/*,.heic,.heif"
                className="file-input w-full"
                disabled={!online || uploading}
                onChange={(event) => void chooseFile(event.target.files?.[0])}
              />
              {uploading && (
                <p className="mt-1 text-sm" role="status">
                  Uploading image...
                </p>
              )}
            </>
          )}
        </div>

        {error && (
          <p role="alert" className="alert alert-error mb-3 text-sm">
            {error}
          </p>
        )}

        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={`btn ${warning.kind === 'exact' ? 'btn-error' : 'btn-primary'}`}
            disabled={!filled || uploading || submitting}
          >
            {submitting && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {warning.approveLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
