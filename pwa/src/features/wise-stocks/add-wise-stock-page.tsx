import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import type { StockDuplicateCheck, StockImageField } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { DuplicateCheckNotice } from '../../components/duplicate-check-notice.tsx';
import { NoAccess } from '../../components/no-access.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { PasswordInput } from '../../components/password-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { useCurrentUser, useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode, isRefusal } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import type { UploadProblem } from '../../lib/image-upload.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import { ADD_FAILED, ADDED_MESSAGE, draftProblems, emptyDraft, MISSING_FIELDS, toCreateBody, type DraftField, type StockDraft } from './add-stock-form.ts';
import { ImageDropZone, POPUP_MS } from './image-drop-zone.tsx';
import { stockImageSlots } from './stock-images.ts';
import { STOCKS_PATH } from './stock-paths.ts';
import { useStockDuplicateCheck } from './use-stock-duplicate-check.ts';
import { describedBy } from '../../lib/described-by.ts';

/** Under the notice of a duplicate check that did not run (decision 076): the server still checks on adding. */
export const UNCHECKED_STOCK_MESSAGE = 'Adding them is still refused if they are already in stock or delivered, until you override.';

interface Notice extends UploadProblem {
  detail?: string;
}

/** Add Wise Stock (/dashboard/add-wise-stocks): admins only, as the server insists too. */
export function AddWiseStockPage() {
  const { can } = useAuthorization();
  if (!can('stocks:manage')) {
    return (
      <NoAccess screen="Add New Wise Stock" message="You do not have permission to access this data. Wise stocks are added by admins; you can read them in the list.">
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
  const toast = useToast();
  const goBack = useGoBack(STOCKS_PATH);
  const db = useUserDb();
  const me = useCurrentUser();
  const [draft, setDraft] = useState<StockDraft>(() => emptyDraft());
  // The adder's name starts as the signed-in person's; once typed in, it is theirs.
  const [nameTouched, setNameTouched] = useState(false);
  // One id per stock being added: a retry after a lost answer returns the stock made the first time.
  const [clientId, setClientId] = useState(() => crypto.randomUUID());
  const [uploading, setUploading] = useState<Record<StockImageField, boolean>>({ authImage: false, docImg1: false, docImg2: false });
  const [submitting, setSubmitting] = useState(false);
  const [added, setAdded] = useState(false);
  const [showMissing, setShowMissing] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const ids = { wiseName: useId(), wiseEmail: useId(), wisePassword: useId(), userName: useId(), notice: useId(), duplicate: useId(), unchecked: useId(), emailNote: useId() };
  const confirm = useConfirm();
  const { online } = useSyncStatus();
  const duplicates = useStockDuplicateCheck(draft.wiseEmail, draft.wisePassword, online);
  const { warning, problem } = duplicates;

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const current: StockDraft = nameTouched ? draft : { ...draft, userName: me?.displayName ?? '' };
  const missing = new Set<DraftField>(showMissing ? draftProblems(current).missing : []);
  const busyUploading = Object.values(uploading).some(Boolean);
  const busy = submitting || added;

  const change = <K extends DraftField>(field: K, value: StockDraft[K]) => {
    setDraft((previous) => ({ ...previous, [field]: value }));
    if (notice?.title === MISSING_FIELDS.title) setNotice(null);
  };

  const reset = () => {
    setDraft(emptyDraft());
    setNameTouched(false);
    setClientId(crypto.randomUUID());
    setShowMissing(false);
    setNotice(null);
    setAdded(false);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || busyUploading) return;
    const { missing: absent, invalid } = draftProblems(current);
    if (absent.length > 0) {
      setShowMissing(true);
      setNotice(MISSING_FIELDS);
      const first = absent.find((field) => field in ids) as keyof typeof ids | undefined;
      if (first) document.getElementById(ids[first])?.focus();
      return;
    }
    // What the API would refuse, said before anything is sent, as the refusal would say it.
    if (invalid) {
      setNotice({ ...ADD_FAILED, detail: invalid });
      return;
    }
    setSubmitting(true);
    setNotice(null);
    try {
      // Credentials already in stock or delivered are added only when the admin overrides, having seen the
      // warning: a first click that finds them shows it and sends nothing.
      const shown = warning;
      const found = await duplicates.checkNow();
      if (found.kind !== 'none' && found.kind !== shown.kind) return;
      if (found.needsConfirmation) {
        const confirmed = await confirm({
          title: 'Add duplicate credentials?',
          text: 'These exact credentials are already in stock or delivered to an order. Adding them again will create duplicate credentials.',
          confirmLabel: 'Override & Add',
          danger: true,
        });
        if (!confirmed) return;
      }
      const body = { ...toCreateBody(current, clientId), ...(found.kind !== 'none' ? { overrideDuplicates: true } : {}) };
      const stock = await unwrap(api['wise-stocks'].$post({ json: body }));
      if (db) await keepOnDevice(db, { stocks: [stock] });
      requestSync().catch(() => {});
      toast.success(ADDED_MESSAGE, POPUP_MS);
      setAdded(true);
      resetTimer.current = setTimeout(reset, POPUP_MS);
    } catch (error) {
      if (hasCode(error, 'duplicate_credentials')) {
        // Found by the server meanwhile: the warning shows, and the next click is the override.
        duplicates.learn(error.details as StockDuplicateCheck);
        return;
      }
      console.error('Adding a Wise stock failed', error);
      const detail = isRefusal(error) ? error.message : undefined;
      setNotice({ ...ADD_FAILED, detail });
    } finally {
      setSubmitting(false);
    }
  };

  const inputClass = (field: DraftField) => `input w-full ${missing.has(field) ? 'input-error' : ''}`;

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

      <form noValidate onSubmit={submit} className="card bg-base-100 shadow-sm" aria-describedby={describedBy(notice && ids.notice, warning.title && ids.duplicate, problem && ids.unchecked)}>
        <div className="card-body gap-6">
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

          {warning.title && (
            <div id={ids.duplicate} role="alert" className={`alert ${warning.kind === 'exact' ? 'alert-error' : 'alert-warning'}`}>
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

          <DuplicateCheckNotice id={ids.unchecked} problem={problem} consequence={UNCHECKED_STOCK_MESSAGE} />

          <fieldset className="space-y-4">
            <legend className="mb-2 text-lg font-semibold">Account Details</legend>
            <div>
              <label htmlFor={ids.wiseName} className="label mb-1 block text-sm font-medium text-base-content">
                Account Holder Name <span aria-hidden="true" className="text-error">*</span>
              </label>
              <input
                id={ids.wiseName}
                className={inputClass('wiseName')}
                value={draft.wiseName}
                onChange={(event) => change('wiseName', event.target.value)}
                required
                aria-invalid={missing.has('wiseName') || undefined}
                autoComplete="off"
                disabled={busy}
              />
            </div>
            <div>
              <label htmlFor={ids.wiseEmail} className="label mb-1 block text-sm font-medium text-base-content">
                Email Address <span aria-hidden="true" className="text-error">*</span>
              </label>
              <input
                id={ids.wiseEmail}
                type="email"
                className={inputClass('wiseEmail')}
                value={draft.wiseEmail}
                onChange={(event) => change('wiseEmail', event.target.value)}
                required
                aria-invalid={missing.has('wiseEmail') || undefined}
                aria-describedby={warning.emailInline ? ids.emailNote : undefined}
                autoComplete="off"
                disabled={busy}
              />
              {warning.emailInline && (
                <p id={ids.emailNote} className="mt-1 text-xs text-base-content/70">
                  {warning.emailInline}
                </p>
              )}
            </div>
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
                  onBusyChange={(value) => setUploading((previous) => ({ ...previous, [slot.field]: value }))}
                  invalid={missing.has(slot.field)}
                  disabled={busy}
                />
              ))}
            </div>
          </fieldset>

          <fieldset className="space-y-4">
            <legend className="mb-2 text-lg font-semibold">Added By</legend>
            <div>
              <label htmlFor={ids.userName} className="label mb-1 block text-sm font-medium text-base-content">
                Your Name <span aria-hidden="true" className="text-error">*</span>
              </label>
              <input
                id={ids.userName}
                className={inputClass('userName')}
                value={current.userName}
                onChange={(event) => {
                  setNameTouched(true);
                  change('userName', event.target.value);
                }}
                required
                aria-invalid={missing.has('userName') || undefined}
                autoComplete="name"
                disabled={busy}
              />
            </div>
          </fieldset>

          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn" onClick={goBack} disabled={submitting}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy || busyUploading} aria-busy={submitting || undefined}>
              {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {submitting ? 'Adding...' : warning.submitLabel}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}
