import { useLiveQuery } from 'dexie-react-hooks';
import { useId, useState, type FormEvent } from 'react';
import { splitLines } from '../../../../edge-api/src/contract/deliveries.ts';
import { fieldIssues } from '../../../../edge-api/src/contract/fields.ts';
import { newServiceStockBody, serviceStockLabel, type ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { StockExportButton } from '../../components/stock-export-button.tsx';
import { useToast } from '../../components/toast.tsx';
import { useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { ServiceStockImport } from './service-stock-import.tsx';

export const STOCK_DUPLICATE_MESSAGE = 'Already in stock or delivered to an order. Add it anyway?';

const statusLabel: Record<ServiceStock['status'], string> = { available: 'Available', sold: 'Sold', disabled: 'Withdrawn' };
const statusBadge: Record<ServiceStock['status'], string> = { available: 'badge-success', sold: 'badge-info', disabled: 'badge-ghost' };

type Kind = 'account' | 'server' | 'lines';
interface Fields {
  email: string;
  name: string;
  host: string;
  port: string;
  user: string;
  password: string;
  lines: string;
}
const emptyFields: Fields = { email: '', name: '', host: '', port: '22', user: '', password: '', lines: '' };

/** What is sent for one item of the service's kind. */
function itemOf(kind: Kind, fields: Fields, lines?: string[]) {
  if (kind === 'account') return { account: { email: fields.email.trim(), password: fields.password, name: fields.name.trim() } };
  if (kind === 'server') return { server: { host: fields.host.trim(), port: Number(fields.port), user: fields.user.trim(), password: fields.password } };
  return { lines: lines ?? splitLines(fields.lines) };
}

const fieldLabels: Record<string, string> = {
  'account.email': 'Email',
  'account.password': 'Password',
  'account.name': 'Name',
  'server.host': 'Host',
  'server.port': 'Port',
  'server.user': 'User',
  'server.password': 'Password',
  lines: 'Lines',
};

/**
 * A service's own stock (decision 072), on the All Services dashboard: its items as last synced, secrets
 * never shown (masked), with Add (one item, or for lines one item per pasted line), Withdraw and, for
 * admins, Export (secrets only on request, audited: decision 198). Adding
 * and withdrawing need a connection: the server seals the secret and checks it for duplicates first.
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function ServiceStockDialog({ service, online, onClose }: { service: Service; online: boolean; onClose: () => void }) {
  const toast = useToast();
  const db = useUserDb();
  const kind = (service.deliveryKind ?? 'account') as Kind;
  const items = useLiveQuery(
    async () => (db ? (await db.serviceStocks.where('serviceId').equals(service.id).toArray()).sort((a, b) => b.createdAt.localeCompare(a.createdAt)) : []),
    [db, service.id],
  );
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [eachLine, setEachLine] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const formId = useId();
  // The bulk add is for admins (decision 075); this dialog is on an admin screen, and says so again here.
  const { can } = useAuthorization();

  // The answer shows at once; its secret is left out (this dialog never shows it): the sync brings the row
  // as the device keeps it, sealed when the vault is on (decision 068).
  const keep = async (rows: ServiceStock[]) => {
    const masked = rows.map(({ password: _password, lines: _lines, ...row }): ServiceStock => ({ ...row, secretMasked: true }));
    if (db && masked.length > 0) await db.serviceStocks.bulkPut(masked);
    requestSync().catch((error: unknown) => console.warn('Sync after a stock change failed', error));
  };

  const set = (name: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setDuplicate(null);
  };

  const send = async (overrideDuplicates: boolean) => {
    const bodies = kind === 'lines' && eachLine ? splitLines(fields.lines).map((line) => itemOf(kind, fields, [line])) : [itemOf(kind, fields)];
    const found = bodies.flatMap((body) => {
      const checked = newServiceStockBody.safeParse({ serviceId: service.id, ...body });
      return checked.success
        ? []
        : fieldIssues(checked.error).map((issue) => `${fieldLabels[issue.path] ?? fieldLabels[issue.path.split('.')[0]!] ?? issue.path} ${issue.message}`);
    });
    setProblems([...new Set(found)]);
    if (found.length > 0) return;
    setSending(true);
    setDuplicate(null);
    const added: ServiceStock[] = [];
    try {
      for (const body of bodies) {
        const json = { id: crypto.randomUUID(), serviceId: service.id, ...body, ...(overrideDuplicates && { overrideDuplicates: true }) };
        added.push(await unwrap(api['service-stocks'].$post({ json })));
      }
      toast.success(added.length === 1 ? 'Stock added.' : `${added.length} items added to stock.`);
      setFields(emptyFields);
    } catch (cause) {
      if (hasCode(cause, 'duplicate_credentials')) setDuplicate(cause.message);
      else setProblems([`Failed to add stock: ${cause instanceof Error ? cause.message : String(cause)}`]);
      if (added.length > 0) toast.success(`${added.length} added before this one.`);
    } finally {
      await keep(added);
      setSending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!sending) void send(false);
  };

  const withdraw = async (item: ServiceStock) => {
    setWithdrawing(item.id);
    try {
      const answer = await unwrap(api['service-stocks'][':id'].withdraw.$post({ param: { id: item.id }, json: { version: item.version } }));
      await keep([answer]);
      toast.success('Withdrawn from stock.');
    } catch (cause) {
      toast.error(`Failed to withdraw: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      setWithdrawing(null);
    }
  };

  // After an import: the service's items as the server has them now, kept without their secrets.
  const refresh = async () => {
    try {
      await keep(await unwrap(api['service-stocks'].$get({ query: { serviceId: service.id } })));
    } catch (error) {
      console.warn('Reading the stock after an import failed; the next sync brings it', error);
      requestSync().catch(() => {});
    }
  };

  const available = items?.filter((item) => item.status === 'available').length ?? 0;
  const sold = items?.filter((item) => item.status === 'sold').length ?? 0;
  const withdrawn = (items?.length ?? 0) - available - sold;

  return (
    <ModalDialog title={`Stock: ${service.title}`} onClose={onClose} busy={sending} className="max-w-2xl">
      <p className="mb-3 text-sm" aria-live="polite">
        {available} available · {sold} sold · {withdrawn} withdrawn
        {service.autoDeliver ? ' · delivered automatically when an order is marked paid' : ''}
      </p>
      {can('services:manage') && (items?.length ?? 0) > 0 && (
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
      {items === undefined ? (
        <p className="text-sm">Loading stock...</p>
      ) : items.length === 0 ? (
        <p className="mb-4 text-sm">No stock for this service yet.</p>
      ) : (
        <ul aria-label="Stock items" className="mb-4 max-h-72 divide-y divide-base-300 overflow-y-auto rounded-box border border-base-300">
          {items.map((item) => {
            const label = serviceStockLabel(item);
            return (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium break-all">{label}</p>
                  <p className="text-base-content/80">
                    {item.kind === 'lines' ? (
                      'Lines hidden'
                    ) : (
                      <>
                        Password <span aria-label="hidden">••••••••</span>
                      </>
                    )}
                    {item.faultyAt ? ' · replaced as faulty' : ''}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <span className={`badge ${statusBadge[item.status]}`}>{statusLabel[item.status]}</span>
                  {item.status === 'available' && (
                    <button
                      type="button"
                      className="btn btn-outline btn-xs"
                      aria-label={`Withdraw ${label}`}
                      disabled={!online || withdrawing !== null}
                      onClick={() => void withdraw(item)}
                    >
                      Withdraw
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <form noValidate onSubmit={submit} aria-labelledby={`${formId}-title`}>
        <h3 id={`${formId}-title`} className="mb-2 font-semibold">
          Add stock
        </h3>
        {!online && <p className="mb-3 text-sm">Offline: adding stock needs a connection for its duplicate check.</p>}
        {kind === 'account' && (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Email" type="email" autoComplete="off" value={fields.email} onChange={set('email')} />
            <TextField label="Name" value={fields.name} onChange={set('name')} />
            <PasswordInput
              label="Password"
              required
              autoComplete="new-password"
              value={fields.password}
              onChange={(event) => set('password')(event.target.value)}
            />
          </div>
        )}
        {kind === 'server' && (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Host" value={fields.host} onChange={set('host')} placeholder="vps1.example.net" />
            <TextField label="Port" inputMode="numeric" value={fields.port} onChange={set('port')} />
            <TextField label="User" autoComplete="off" value={fields.user} onChange={set('user')} />
            <PasswordInput
              label="Password"
              required
              autoComplete="new-password"
              value={fields.password}
              onChange={(event) => set('password')(event.target.value)}
            />
          </div>
        )}
        {kind === 'lines' && (
          <div className="space-y-2">
            <label className="block text-sm font-medium" htmlFor={`${formId}-lines`}>
              Lines (one per line)
            </label>
            <textarea
              id={`${formId}-lines`}
              className="textarea w-full font-mono"
              rows={4}
              required
              value={fields.lines}
              onChange={(event) => set('lines')(event.target.value)}
            />
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" className="checkbox checkbox-sm" checked={eachLine} onChange={(event) => setEachLine(event.target.checked)} />
              One item per line (each order gets one line)
            </label>
          </div>
        )}
        {problems.length > 0 && (
          <ul role="alert" className="alert alert-error mt-3 flex-col items-start text-sm">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        {duplicate && (
          <div role="alert" className="alert alert-warning mt-3 flex-col items-start text-sm">
            <p>{duplicate}</p>
            <p>{STOCK_DUPLICATE_MESSAGE}</p>
          </div>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose} disabled={sending}>
            Done
          </button>
          {duplicate ? (
            <button type="button" className="btn btn-warning" disabled={!online || sending} onClick={() => void send(true)}>
              Override &amp; Add
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!online || sending}>
              {sending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Add to stock
            </button>
          )}
        </div>
      </form>
      {can('services:manage') && <ServiceStockImport serviceId={service.id} kind={kind} online={online} onImported={refresh} />}
    </ModalDialog>
  );
}

function TextField({
  label,
  onChange,
  ...input
}: { label: string; onChange: (value: string) => void } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'onChange'>) {
  const id = useId();
  return (
    <div>
      <label className="mb-1 block text-sm font-medium" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input w-full" required {...input} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}
