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
const bodyOf = (draft: Draft) => ({
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
  enabled: true,
});

function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AppError) || !Array.isArray(error.details))
    return { form: error instanceof AppError ? error.message : 'The coupon could not be saved. Try again.' };
  return Object.fromEntries((error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
}

/** Add Coupon: a code, what it takes off, and the limits it keeps (decision 220). */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function CouponForm({ services, onSaved }: { services: Service[]; onSaved: (coupon: Coupon) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      const coupon = await unwrap(api.admin.coupons.$post({ json: bodyOf(draft) }));
      setDraft(empty);
      onSaved(coupon);
    } catch (cause) {
      setErrors(fieldErrors(cause));
    } finally {
      setSaving(false);
    }
  };

  const field = (key: keyof Draft, label: string, input: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className={`input w-full ${errors[key] ? 'input-error' : ''}`}
        value={String(draft[key])}
        onChange={(event) => set(key, event.target.value as never)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={[hint ? `${id}-${key}-hint` : '', errors[key] ? `${id}-${key}-error` : ''].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-${key}-hint`} className="mt-1 text-xs">
          {hint}
        </p>
      )}
      {errors[key] && (
        <p id={`${id}-${key}-error`} className="mt-1 text-sm text-error">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="card space-y-4 border border-base-300 bg-base-100 p-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Add Coupon
      </h2>
      {errors.form && (
        <p role="alert" className="alert alert-error">
          {errors.form}
        </p>
      )}
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
      <label className="flex min-h-11 cursor-pointer items-center gap-2">
        <input type="checkbox" className="checkbox" checked={draft.firstOrderOnly} onChange={(event) => set('firstOrderOnly', event.target.checked)} />
        First order only
      </label>
      <fieldset>
        <legend className="mb-1 text-sm font-semibold">Services (none chosen: every service)</legend>
        <div className="flex flex-wrap gap-2">
          {services.map((service) => (
            <label key={service.id} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-box border border-base-300 px-3">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={draft.serviceIds.includes(service.id)}
                onChange={(event) =>
                  set('serviceIds', event.target.checked ? [...draft.serviceIds, service.id] : draft.serviceIds.filter((s) => s !== service.id))
                }
              />
              {service.title}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary min-h-11" disabled={saving}>
          {saving ? 'Saving…' : 'Add Coupon'}
        </button>
      </div>
    </form>
  );
}
