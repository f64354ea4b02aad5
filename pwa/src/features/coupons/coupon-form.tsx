import { useId, useState, type FormEvent } from 'react';
import type { Coupon, CouponKind } from '../../../../edge-api/src/contract/coupons.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { AppError } from '../../lib/app-error.ts';

interface Draft {
  code: string;
  kind: CouponKind;
  amount: string;
  minTotal: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  startsAt: string;
  endsAt: string;
  firstOrderOnly: boolean;
  serviceIds: string[];
}

const empty: Draft = {
  code: '',
  kind: 'percent',
  amount: '',
  minTotal: '',
  maxUses: '',
  maxUsesPerCustomer: '',
  startsAt: '',
  endsAt: '',
  firstOrderOnly: false,
  serviceIds: [],
};

const count = (text: string) => (text.trim() === '' ? null : Number(text));
const instant = (local: string) => (local ? new Date(local).toISOString() : null);

/** The body the server checks: every rule is the server's, and its reasons show per field. */
export const bodyOf = (draft: Draft, enabled = true) => ({
  code: draft.code,
  kind: draft.kind,
  amount: draft.amount,
  minTotal: draft.minTotal.trim() || null,
  maxUses: count(draft.maxUses),
  maxUsesPerCustomer: count(draft.maxUsesPerCustomer),
  startsAt: instant(draft.startsAt),
  endsAt: instant(draft.endsAt),
  firstOrderOnly: draft.firstOrderOnly,
  serviceIds: draft.serviceIds,
  enabled,
});

/** An ISO instant as a datetime-local field shows it, in this device's time zone. */
function localOf(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A saved coupon as the form edits it. */
export const draftOf = (coupon: Coupon): Draft => ({
  code: coupon.code,
  kind: coupon.kind,
  amount: coupon.amount,
  minTotal: coupon.minTotal ?? '',
  maxUses: coupon.maxUses === null ? '' : String(coupon.maxUses),
  maxUsesPerCustomer: coupon.maxUsesPerCustomer === null ? '' : String(coupon.maxUsesPerCustomer),
  startsAt: localOf(coupon.startsAt),
  endsAt: localOf(coupon.endsAt),
  firstOrderOnly: coupon.firstOrderOnly,
  serviceIds: coupon.serviceIds,
});

function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AppError) || !Array.isArray(error.details))
    return { form: error instanceof AppError ? error.message : 'The coupon could not be saved. Try again.' };
  return Object.fromEntries((error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
}

type Errors = Record<string, string>;

/** One labelled input of the form, its hint and the server's reason for refusing it. */
function DraftField({
  id,
  name,
  label,
  draft,
  errors,
  onChange,
  input = {},
  hint,
}: {
  id: string;
  name: keyof Draft;
  label: string;
  draft: Draft;
  errors: Errors;
  onChange: (value: string) => void;
  input?: Partial<React.InputHTMLAttributes<HTMLInputElement>>;
  hint?: string;
}) {
  const error = errors[name];
  return (
    <div>
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className={`input w-full ${error ? 'input-error' : ''}`}
        value={String(draft[name])}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-${name}-hint` : '', error ? `${id}-${name}-error` : ''].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-${name}-hint`} className="mt-1 text-xs">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-${name}-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

function ServicesChoice({ services, chosen, onChange }: { services: Service[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-semibold">Services (none chosen: every service)</legend>
      <div className="flex flex-wrap gap-2">
        {services.map((service) => (
          <label key={service.id} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-box border border-base-300 px-3">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={chosen.includes(service.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, service.id] : chosen.filter((s) => s !== service.id))}
            />
            {service.title}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The code, what it takes off and its limits. */
function CouponFields({ id, draft, errors, set }: { id: string; draft: Draft; errors: Errors; set: <K extends keyof Draft>(key: K, value: Draft[K]) => void }) {
  const field = (name: keyof Draft, label: string, input: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}, hint?: string) => (
    <DraftField id={id} name={name} label={label} draft={draft} errors={errors} onChange={(value) => set(name, value as never)} input={input} hint={hint} />
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {field(
        'code',
        'Code',
        { required: true, autoCapitalize: 'characters', maxLength: 32 },
        '3 to 32 letters, digits, - or _; customers type it in any case.',
      )}
      <div>
        <label htmlFor={`${id}-kind`} className="mb-1 block text-sm font-semibold">
          Takes off
        </label>
        <select id={`${id}-kind`} className="select w-full" value={draft.kind} onChange={(event) => set('kind', event.target.value as CouponKind)}>
          <option value="percent">A percentage</option>
          <option value="fixed">A fixed amount</option>
        </select>
      </div>
      {field('amount', draft.kind === 'percent' ? 'Percent off' : 'Amount off (USD)', { required: true, inputMode: 'decimal' })}
      {field('minTotal', 'Minimum order total (optional)', { inputMode: 'decimal' })}
      {field('maxUses', 'Uses in all (optional)', { inputMode: 'numeric' })}
      {field('maxUsesPerCustomer', 'Uses per customer (optional)', { inputMode: 'numeric' })}
      {field('startsAt', 'Starts (optional)', { type: 'datetime-local' })}
      {field('endsAt', 'Ends (optional)', { type: 'datetime-local' })}
    </div>
  );
}

/**
 * Add Coupon, or Edit Coupon when `editing` is given (decision 220): a code, what it takes off, and the limits
 * it keeps. An edit keeps the coupon on or off as it is, and its uses so far.
 */
export function CouponForm({
  services,
  onSaved,
  editing,
  onCancel,
}: {
  services: Service[];
  onSaved: (coupon: Coupon) => void;
  editing?: Coupon;
  onCancel?: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : empty);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const title = editing ? `Edit Coupon ${editing.code}` : 'Add Coupon';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      const coupon = editing
        ? await unwrap(api.admin.coupons[':id'].$put({ param: { id: editing.id }, json: bodyOf(draft, editing.enabled) }))
        : await unwrap(api.admin.coupons.$post({ json: bodyOf(draft) }));
      setDraft(empty);
      onSaved(coupon);
    } catch (cause) {
      setErrors(fieldErrors(cause));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="card space-y-4 border border-base-300 bg-base-100 p-4" aria-label={title}>
      <h2 className="text-lg font-bold">{title}</h2>
      {errors.form && (
        <p role="alert" className="alert alert-error">
          {errors.form}
        </p>
      )}
      <CouponFields id={id} draft={draft} errors={errors} set={set} />
      <label className="flex min-h-11 cursor-pointer items-center gap-2">
        <input type="checkbox" className="checkbox" checked={draft.firstOrderOnly} onChange={(event) => set('firstOrderOnly', event.target.checked)} />
        First order only
      </label>
      <ServicesChoice services={services} chosen={draft.serviceIds} onChange={(ids) => set('serviceIds', ids)} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <button type="button" className="btn min-h-11" disabled={saving} onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary min-h-11" disabled={saving}>
          {saving ? 'Saving…' : editing ? 'Save Coupon' : 'Add Coupon'}
        </button>
      </div>
    </form>
  );
}
