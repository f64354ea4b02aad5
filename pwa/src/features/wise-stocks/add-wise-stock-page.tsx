import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { describedBy } from '../../lib/described-by.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import type { DraftField } from './add-stock-form.ts';
import { AccountDetailsFields, AddedByField, AddStockNotices } from './add-wise-stock-fields.tsx';
import { ImageDropZone } from './image-drop-zone.tsx';
import { stockImageSlots } from './stock-images.ts';
import { STOCKS_PATH } from './stock-paths.ts';
import { useAddWiseStock } from './use-add-wise-stock.ts';

/** Add Wise Stock (/dashboard/add-wise-stocks): admins only, as the server insists too. */
export function AddWiseStockPage() {
  const { can } = useAuthorization();
  if (!can('stocks:manage')) {
    return (
      <NoAccess
        screen="Add New Wise Stock"
        message="You do not have permission to access this data. Wise stocks are added by admins; you can read them in the list."
      >
        <Link to={STOCKS_PATH} className="btn btn-primary">
          Back to Stocks
        </Link>
      </NoAccess>
    );
  }
  return <AddWiseStockForm />;
}

function AddWiseStockForm() {
  usePageTitle('Add New Wise Stock');
  const goBack = useGoBack(STOCKS_PATH);
  const ids = {
    wiseName: useId(),
    wiseEmail: useId(),
    wisePassword: useId(),
    userName: useId(),
    notice: useId(),
    duplicate: useId(),
    unchecked: useId(),
    emailNote: useId(),
  };
  const focusFirst = (absent: DraftField[]) => {
    const first = absent.find((field) => field in ids) as keyof typeof ids | undefined;
    if (first) document.getElementById(ids[first])?.focus();
  };
  const form = useAddWiseStock(focusFirst);
  const { draft, current, missing, notice, duplicates, busy, submitting, change } = form;
  const { warning, problem } = duplicates;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Add New Wise Stock</h1>
          <p className="text-base-content/70">Add a ready-made Wise account to the inventory.</p>
        </div>
        <button type="button" className="btn btn-ghost" onClick={goBack}>
          <span aria-hidden="true">←</span> Back
        </button>
      </header>

      <form
        noValidate
        onSubmit={form.submit}
        className="card bg-base-100 shadow-sm"
        aria-describedby={describedBy(notice && ids.notice, warning.title && ids.duplicate, problem && ids.unchecked)}
      >
        <div className="card-body gap-6">
          <AddStockNotices notice={notice} duplicates={duplicates} ids={ids} />
          <AccountDetailsFields ids={ids} warning={warning} draft={draft} missing={missing} busy={busy} change={change} />

          <StockImagesFieldset form={form} />

          <AddedByField
            id={ids.userName}
            value={current.userName}
            invalid={missing.has('userName')}
            busy={busy}
            onChange={(value) => {
              form.setNameTouched(true);
              change('userName', value);
            }}
          />

          <FormActions onCancel={goBack} submitting={submitting} disabled={busy || form.busyUploading} label={warning.submitLabel} />
        </div>
      </form>
    </div>
  );
}

type AddStockForm = ReturnType<typeof useAddWiseStock>;

function StockImagesFieldset({ form }: { form: AddStockForm }) {
  const { draft, clientId, missing, busy, change } = form;
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-lg font-semibold">Account Images</legend>
      <div className="grid gap-4 md:grid-cols-3">
        {stockImageSlots.map((slot) => (
          <ImageDropZone
            key={`${slot.field}-${clientId}`}
            label={slot.label}
            required={slot.field === 'authImage'}
            value={draft[slot.field]}
            onChange={(image: UploadedImage | null) => change(slot.field, image)}
            onBusyChange={(value) => form.setUploading((previous) => ({ ...previous, [slot.field]: value }))}
            invalid={missing.has(slot.field)}
            disabled={busy}
          />
        ))}
      </div>
    </fieldset>
  );
}

function FormActions({ onCancel, submitting, disabled, label }: { onCancel: () => void; submitting: boolean; disabled: boolean; label: string }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <button type="button" className="btn" onClick={onCancel} disabled={submitting}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled} aria-busy={submitting || undefined}>
        {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {submitting ? 'Adding...' : label}
      </button>
    </div>
  );
}
