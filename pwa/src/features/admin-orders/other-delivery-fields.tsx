import { useId, type ReactNode } from 'react';
import {
  DELIVERY_FILE_MAX_MEGABYTES,
  DELIVERY_LINE_MAX,
  DELIVERY_LINES_MAX,
  formatFileSize,
  splitLines,
} from '../../../../edge-api/src/contract/deliveries.ts';
import { serviceStockLabel, type ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import { PasswordInput } from '../../components/password-input.tsx';

// The fields of the delivery of another kind (decision 069): each kind's inputs, as OtherDeliveryModal lays them out.

export interface UploadedFile {
  path: string;
  name: string;
  size: number;
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

/**
 * One of the service's available items instead of typing (decision 072), in both delivery modals: `typedChoice`
 * names the empty choice (what happens when no item is picked).
 */
export function StockChoice({
  stock,
  value,
  onChange,
  typedChoice,
}: {
  stock: readonly ServiceStock[];
  value: string;
  onChange: (id: string) => void;
  typedChoice: string;
}) {
  const id = useId();
  return (
    <Field label="From this service's stock" id={id}>
      <select id={id} className="select w-full" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{typedChoice}</option>
        {stock.map((item) => (
          <option key={item.id} value={item.id}>
            {serviceStockLabel(item)}
          </option>
        ))}
      </select>
    </Field>
  );
}

export interface ServerLoginDraft {
  host: string;
  port: string;
  user: string;
  password: string;
}

/** Host, port, user and password of a server login. */
export function ServerFields({
  ids,
  draft,
  onChange,
}: {
  ids: { host: string; port: string; user: string };
  draft: ServerLoginDraft;
  onChange: (draft: ServerLoginDraft) => void;
}) {
  const set = (key: keyof ServerLoginDraft, value: string) => onChange({ ...draft, [key]: value });
  return (
    <>
      <div className="grid gap-x-3 sm:grid-cols-[1fr_8rem]">
        <Field label="Host" id={ids.host}>
          <input
            id={ids.host}
            className="input w-full"
            required
            autoComplete="off"
            placeholder="vps.example.com"
            value={draft.host}
            onChange={(e) => set('host', e.target.value)}
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
            value={draft.port}
            onChange={(e) => set('port', e.target.value)}
          />
        </Field>
      </div>
      <Field label="User" id={ids.user}>
        <input id={ids.user} className="input w-full" required autoComplete="off" value={draft.user} onChange={(e) => set('user', e.target.value)} />
      </Field>
      <PasswordInput
        label="Password"
        className="mb-3"
        required
        autoComplete="new-password"
        value={draft.password}
        onChange={(e) => set('password', e.target.value)}
      />
    </>
  );
}

/** The lines to deliver, one per line, with their count and limits. */
export function LinesField({ id, text, onChange }: { id: string; text: string; onChange: (text: string) => void }) {
  const lineCount = splitLines(text).length;
  return (
    <Field label="Lines (one per line)" id={id}>
      <textarea
        id={id}
        className="textarea w-full font-mono"
        rows={8}
        required
        placeholder="host:port:user:password"
        aria-describedby={`${id}-hint`}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-base-content/70">
        {lineCount} {lineCount === 1 ? 'line' : 'lines'}; at most {DELIVERY_LINES_MAX} lines of {DELIVERY_LINE_MAX} characters. Blank lines are left out.
      </p>
    </Field>
  );
}

interface FileFieldProps {
  id: string;
  file: UploadedFile | null;
  online: boolean;
  uploading: boolean;
  onChoose: (file: File | undefined) => void;
  onRemove: () => void;
}

/** The finished document: uploaded as soon as it is chosen (a connection is needed), then named with its size. */
export function FileField({ id, file, online, uploading, onChoose, onRemove }: FileFieldProps) {
  return (
    <Field label="File to deliver" id={id}>
      {file ? (
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-mono break-all" data-testid="chosen-file">
            {file.name} ({formatFileSize(file.size)})
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onRemove}>
            Remove file
          </button>
        </div>
      ) : (
        <>
          <input id={id} type="file" className="file-input w-full" disabled={!online || uploading} onChange={(e) => onChoose(e.target.files?.[0])} />
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
  );
}
