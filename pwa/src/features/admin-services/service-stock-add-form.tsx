import { useId, useState, type FormEvent } from 'react';
import { splitLines } from '../../../../edge-api/src/contract/deliveries.ts';
import { fieldIssues } from '../../../../edge-api/src/contract/fields.ts';
import { newServiceStockBody, type ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import { keepServiceStock } from './service-stock-keep.ts';

export const STOCK_DUPLICATE_MESSAGE = 'Already in stock or delivered to an order. Add it anyway?';

export type Kind = 'account' | 'server' | 'lines';
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

/** The problems of the items to send, as sentences naming the field; none when they may be sent. */
function problemsOf(serviceId: string, bodies: ReturnType<typeof itemOf>[]) {
  const found = bodies.flatMap((body) => {
    const checked = newServiceStockBody.safeParse({ serviceId, ...body });
    return checked.success
      ? []
      : fieldIssues(checked.error).map((issue) => `${fieldLabels[issue.path] ?? fieldLabels[issue.path.split('.')[0]!] ?? issue.path} ${issue.message}`);
  });
  return [...new Set(found)];
}

/** The add form's state: the fields, and sending one item (or one per line) with its duplicate question. */
function useAddStock(serviceId: string, kind: Kind) {
  const toast = useToast();
  const db = useUserDb();
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [eachLine, setEachLine] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const set = (name: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setDuplicate(null);
  };
  const send = async (overrideDuplicates: boolean) => {
    const bodies = kind === 'lines' && eachLine ? splitLines(fields.lines).map((line) => itemOf(kind, fields, [line])) : [itemOf(kind, fields)];
    const found = problemsOf(serviceId, bodies);
    setProblems(found);
    if (found.length > 0) return;
    setSending(true);
    setDuplicate(null);
    const added: ServiceStock[] = [];
    try {
      for (const body of bodies) {
        const json = { id: crypto.randomUUID(), serviceId, ...body, ...(overrideDuplicates && { overrideDuplicates: true }) };
        added.push(await unwrap(api['service-stocks'].$post({ json })));
      }
      toast.success(added.length === 1 ? 'Stock added.' : `${added.length} items added to stock.`);
      setFields(emptyFields);
    } catch (cause) {
      if (hasCode(cause, 'duplicate_credentials')) setDuplicate(cause.message);
      else setProblems([`Failed to add stock: ${cause instanceof Error ? cause.message : String(cause)}`]);
      if (added.length > 0) toast.success(`${added.length} added before this one.`);
    } finally {
      await keepServiceStock(db, added);
      setSending(false);
    }
  };
  return { fields, set, eachLine, setEachLine, problems, duplicate, sending, send };
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

type FieldsProps = Pick<ReturnType<typeof useAddStock>, 'fields' | 'set' | 'eachLine' | 'setEachLine'> & { kind: Kind; linesId: string };

/** The fields of one item of the service's kind. */
function KindFields({ kind, fields, set, eachLine, setEachLine, linesId }: FieldsProps) {
  const password = (
    <PasswordInput label="Password" required autoComplete="new-password" value={fields.password} onChange={(event) => set('password')(event.target.value)} />
  );
  if (kind === 'account')
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Email" type="email" autoComplete="off" value={fields.email} onChange={set('email')} />
        <TextField label="Name" value={fields.name} onChange={set('name')} />
        {password}
      </div>
    );
  if (kind === 'server')
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Host" value={fields.host} onChange={set('host')} placeholder="vps1.example.net" />
        <TextField label="Port" inputMode="numeric" value={fields.port} onChange={set('port')} />
        <TextField label="User" autoComplete="off" value={fields.user} onChange={set('user')} />
        {password}
      </div>
    );
  return (
    <div className="space-y-2">
      <label className="block text-sm font-medium" htmlFor={linesId}>
        Lines (one per line)
      </label>
      <textarea
        id={linesId}
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
  );
}

/**
 * Add one item to a service's stock (decision 072), or for lines one item per pasted line. Needs a
 * connection: the server seals the secret and checks it for duplicates first.
 */
export function ServiceStockAddForm({ serviceId, kind, online, onDone }: { serviceId: string; kind: Kind; online: boolean; onDone: () => void }) {
  const state = useAddStock(serviceId, kind);
  const { problems, duplicate, sending } = state;
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!sending) void state.send(false);
  };
  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="mb-2 font-semibold">
        Add stock
      </h3>
      {!online && <p className="mb-3 text-sm">Offline: adding stock needs a connection for its duplicate check.</p>}
      <KindFields kind={kind} linesId={`${formId}-lines`} {...state} />
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
        <button type="button" className="btn" onClick={onDone} disabled={sending}>
          Done
        </button>
        {duplicate ? (
          <button type="button" className="btn btn-warning" disabled={!online || sending} onClick={() => void state.send(true)}>
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
  );
}
