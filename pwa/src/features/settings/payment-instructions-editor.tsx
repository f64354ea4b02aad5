import { useId, useState, type ReactNode } from 'react';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { useToast } from '../../components/toast.tsx';
import { IMAGE_FILE_ACCEPT, imageFileHint, uploadImage, uploadProblem } from '../../lib/image-upload.ts';
import { MAX_PAYMENT_INSTRUCTIONS, type PaymentInstructions } from '../../../../edge-api/src/contract/settings.ts';
import { paymentMethodIds, paymentMethodName } from '../../lib/catalog.ts';

const emptyEntry = (method: string): PaymentInstructions => ({ method, address: '', accountName: '', qrImage: '', instructions: '' });

type Part = Exclude<keyof PaymentInstructions, 'method'>;
const parts: { key: Part; label: string; hint?: string; multiline?: boolean }[] = [
  { key: 'address', label: 'Number or address', hint: 'The wallet number, address or account number customers pay to.' },
  { key: 'accountName', label: 'Account name' },
  { key: 'qrImage', label: 'QR image link (optional)', hint: 'An https:// link to a picture of the QR code, or upload the picture below.' },
  { key: 'instructions', label: 'Instructions', multiline: true, hint: 'e.g. Use Send Money, then send the transaction id on the order.' },
];

interface FieldKit {
  fieldId: (path: string) => string;
  errorProps: (path: string) => Record<string, unknown>;
  errorText: (path: string, label: string) => ReactNode;
  labelClass: string;
}

/** One payment method's instructions: the method, where to pay, to whom, a QR code and a line of instructions. */
function InstructionsEntry({
  entry,
  index,
  methods,
  kit,
  setPart,
  onRemove,
}: {
  entry: PaymentInstructions;
  index: number;
  methods: string[];
  kit: FieldKit;
  setPart: (key: keyof PaymentInstructions, value: string) => void;
  onRemove: () => void;
}) {
  const { fieldId, errorProps, errorText, labelClass } = kit;
  const methodPath = `paymentInstructions.${index}.method`;
  return (
    <li className="space-y-3 rounded-box border border-base-300 p-3">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <label htmlFor={fieldId(methodPath)} className={labelClass}>
            Payment method {index + 1}
          </label>
          <select
            id={fieldId(methodPath)}
            className="select w-full"
            value={entry.method}
            onChange={(e) => setPart('method', e.target.value)}
            {...errorProps(methodPath)}
          >
            {methods.map((method) => (
              <option key={method} value={method}>
                {paymentMethodName(method)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn btn-ghost text-error" aria-label={`Remove the ${paymentMethodName(entry.method)} instructions`} onClick={onRemove}>
          Remove
        </button>
      </div>
      {errorText(methodPath, 'Method')}
      {parts.map((part) => {
        const path = `paymentInstructions.${index}.${part.key}`;
        const props = {
          id: fieldId(path),
          value: entry[part.key],
          onChange: (e: { target: { value: string } }) => setPart(part.key, e.target.value),
          ...errorProps(path),
        };
        return (
          <div key={part.key}>
            <label htmlFor={fieldId(path)} className={labelClass}>
              {part.label}
            </label>
            {part.multiline ? <textarea className="textarea w-full" rows={2} {...props} /> : <input className="input w-full" {...props} />}
            {part.hint && <p className="mt-1 text-xs text-base-content/80">{part.hint}</p>}
            {errorText(path, part.label)}
            {part.key === 'qrImage' && <QrUpload method={entry.method} onUploaded={(url) => setPart('qrImage', url)} />}
          </div>
        );
      })}
    </li>
  );
}

/**
 * Per payment method, what a customer who chose it sees until the order is paid: where to pay, to whom,
 * a QR code and a line of instructions. Field errors arrive under `paymentInstructions.N.part`.
 */
export function PaymentInstructionsEditor({
  list,
  onChange,
  fieldId,
  errorProps,
  errorText,
  labelClass,
  cardClass,
}: {
  list: PaymentInstructions[];
  onChange: (next: PaymentInstructions[], changedPath?: string) => void;
  fieldId: (path: string) => string;
  errorProps: (path: string) => Record<string, unknown>;
  errorText: (path: string, label: string) => ReactNode;
  labelClass: string;
  cardClass: string;
}) {
  const unused = paymentMethodIds.filter((method) => !list.some((entry) => entry.method.toLowerCase() === method));
  const setPart = (index: number, key: keyof PaymentInstructions, value: string) =>
    onChange(
      list.map((entry, i) => (i === index ? { ...entry, [key]: value } : entry)),
      `paymentInstructions.${index}.${key}`,
    );
  return (
    <section className={cardClass} aria-labelledby={fieldId('instructions-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('instructions-heading')} className="card-title">
          Payment instructions
        </h2>
        <p className="text-sm text-base-content/80">Shown on a customer&apos;s order for the payment method they chose, until the order is paid.</p>
        {errorText('paymentInstructions', 'Payment instructions')}
        <ul className="space-y-4">
          {list.map((entry, index) => (
            <InstructionsEntry
              key={index}
              entry={entry}
              index={index}
              methods={[entry.method, ...unused]}
              kit={{ fieldId, errorProps, errorText, labelClass }}
              setPart={(key, value) => setPart(index, key, value)}
              onRemove={() =>
                onChange(
                  list.filter((_, i) => i !== index),
                  'paymentInstructions',
                )
              }
            />
          ))}
        </ul>
        <button
          type="button"
          className="btn btn-outline btn-sm w-fit"
          disabled={list.length >= MAX_PAYMENT_INSTRUCTIONS || unused.length === 0}
          onClick={() => onChange([...list, emptyEntry(unused[0]!)])}
        >
          <span aria-hidden="true">+</span> Add Payment Instructions
        </button>
      </div>
    </section>
  );
}

/** Uploads a QR picture (a public image, as service pictures are) and hands back its address. */
function QrUpload({ method, onUploaded }: { method: string; onUploaded: (url: string) => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  return (
    <div className="mt-2">
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span>Upload a QR picture for {paymentMethodName(method)}</span>
        <input
          type="file"
          accept={IMAGE_FILE_ACCEPT}
          aria-describedby={hintId}
          className="file-input file-input-sm max-w-full"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            setBusy(true);
            uploadImage(file, 'service')
              .then((uploaded) => onUploaded(uploaded.url))
              .catch((error: unknown) => {
                const problem = uploadProblem(error, 'service');
                toast.error(`${problem.title} ${problem.text}`);
              })
              .finally(() => setBusy(false));
          }}
        />
      </label>
      <p id={hintId} className="mt-1 text-xs text-base-content/80">
        {imageFileHint(uploadLimitMegabytes.service)}
      </p>
    </div>
  );
}
