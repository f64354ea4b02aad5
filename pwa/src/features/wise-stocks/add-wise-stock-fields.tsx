import type { ReactNode } from 'react';
import { DuplicateBanner } from '../../components/duplicate-banner.tsx';
import { DuplicateCheckNotice } from '../../components/duplicate-check-notice.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import type { DraftField, StockDraft } from './add-stock-form.ts';
import type { Notice } from './use-add-wise-stock.ts';
import type { useStockDuplicateCheck } from './use-stock-duplicate-check.ts';

/** Under the notice of a duplicate check that did not run (decision 076): the server still checks on adding. */
export const UNCHECKED_STOCK_MESSAGE = 'Adding them is still refused if they are already in stock or delivered, until you override.';

type Duplicates = ReturnType<typeof useStockDuplicateCheck>;

/** What stands above the form: why it was not sent, the duplicate warning, and a check that could not run. */
export function AddStockNotices({
  notice,
  duplicates,
  ids,
}: {
  notice: Notice | null;
  duplicates: Duplicates;
  ids: { notice: string; duplicate: string; unchecked: string };
}) {
  const { warning, problem } = duplicates;
  return (
    <>
      {notice && (
        <div id={ids.notice} role="alert" className="alert alert-error">
          <div>
            <p>
              <strong>{notice.title}</strong> {notice.text}
            </p>
            {notice.detail && <p className="text-sm">{notice.detail}</p>}
          </div>
        </div>
      )}
      <DuplicateBanner id={ids.duplicate} warning={warning} />
      <DuplicateCheckNotice id={ids.unchecked} problem={problem} consequence={UNCHECKED_STOCK_MESSAGE} />
    </>
  );
}

const labelClass = 'label mb-1 block text-sm font-medium text-base-content';
const RequiredMark = () => (
  <span aria-hidden="true" className="text-error">
    *
  </span>
);

export interface FieldsProps {
  draft: StockDraft;
  missing: ReadonlySet<DraftField>;
  busy: boolean;
  change: <K extends DraftField>(field: K, value: StockDraft[K]) => void;
}

function TextField({
  id,
  label,
  field,
  type,
  describedBy,
  note,
  ...props
}: FieldsProps & { id: string; label: ReactNode; field: 'wiseName' | 'wiseEmail'; type?: string; describedBy?: string; note?: ReactNode }) {
  const { draft, missing, busy, change } = props;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label} <RequiredMark />
      </label>
      <input
        id={id}
        type={type}
        className={`input w-full ${missing.has(field) ? 'input-error' : ''}`}
        value={draft[field]}
        onChange={(event) => change(field, event.target.value)}
        required
        aria-invalid={missing.has(field) || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        disabled={busy}
      />
      {note}
    </div>
  );
}

/** The account's holder name, email and password, with what the duplicate check says of each. */
export function AccountDetailsFields({
  ids,
  warning,
  ...props
}: FieldsProps & { ids: { wiseName: string; wiseEmail: string; wisePassword: string; emailNote: string }; warning: Duplicates['warning'] }) {
  const { draft, missing, busy, change } = props;
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-lg font-semibold">Account Details</legend>
      <TextField {...props} id={ids.wiseName} label="Account Holder Name" field="wiseName" />
      <TextField
        {...props}
        id={ids.wiseEmail}
        label="Email Address"
        field="wiseEmail"
        type="email"
        describedBy={warning.emailInline ? ids.emailNote : undefined}
        note={
          warning.emailInline && (
            <p id={ids.emailNote} className="mt-1 text-xs text-base-content/70">
              {warning.emailInline}
            </p>
          )
        }
      />
      <PasswordInput
        id={ids.wisePassword}
        className={missing.has('wisePassword') ? '[&_input]:border-error' : undefined}
        label="Password"
        requiredMark
        value={draft.wisePassword}
        onChange={(event) => change('wisePassword', event.target.value)}
        required
        aria-invalid={missing.has('wisePassword') || undefined}
        hint={warning.passwordInline ?? undefined}
        autoComplete="off"
        disabled={busy}
      />
    </fieldset>
  );
}

/** Who adds the stock: the signed-in person's name until another is typed. */
export function AddedByField({
  id,
  value,
  invalid,
  busy,
  onChange,
}: {
  id: string;
  value: string;
  invalid: boolean;
  busy: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-lg font-semibold">Added By</legend>
      <div>
        <label htmlFor={id} className={labelClass}>
          Your Name <RequiredMark />
        </label>
        <input
          id={id}
          className={`input w-full ${invalid ? 'input-error' : ''}`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          required
          aria-invalid={invalid || undefined}
          autoComplete="name"
          disabled={busy}
        />
      </div>
    </fieldset>
  );
}
