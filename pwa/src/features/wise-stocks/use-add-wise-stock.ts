import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { StockDuplicateCheck, StockImageField } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { useCurrentUser, useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode, isRefusal } from '../../lib/app-error.ts';
import type { UploadProblem } from '../../lib/image-upload.ts';
import { ADD_FAILED, ADDED_MESSAGE, draftProblems, emptyDraft, MISSING_FIELDS, toCreateBody, type DraftField, type StockDraft } from './add-stock-form.ts';
import { POPUP_MS } from './image-drop-zone.tsx';
import { useStockDuplicateCheck } from './use-stock-duplicate-check.ts';

export interface Notice extends UploadProblem {
  detail?: string;
}

/** The stock being typed: the draft, which fields to mark missing, the notice above the form. */
function useStockDraft() {
  const me = useCurrentUser();
  const [draft, setDraft] = useState<StockDraft>(() => emptyDraft());
  // The adder's name starts as the signed-in person's; once typed in, it is theirs.
  const [nameTouched, setNameTouched] = useState(false);
  // One id per stock being added: a retry after a lost answer returns the stock made the first time.
  const [clientId, setClientId] = useState(() => crypto.randomUUID());
  const [showMissing, setShowMissing] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const current: StockDraft = nameTouched ? draft : { ...draft, userName: me?.displayName ?? '' };
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
  };
  const missing = new Set<DraftField>(showMissing ? draftProblems(current).missing : []);
  return { draft, current, clientId, missing, notice, setNotice, setShowMissing, setNameTouched, change, reset };
}

/**
 * The Add Wise Stock form's state and its submit: the fields checked as the API would, duplicates warned
 * of (and added only on an override), the stock kept on the device, the form emptied after the popup.
 * `focusFirst` moves to the first of the missing fields that has an input.
 */
export function useAddWiseStock(focusFirst: (missing: DraftField[]) => void) {
  const toast = useToast();
  const confirm = useConfirm();
  const db = useUserDb();
  const { online } = useSyncStatus();
  const form = useStockDraft();
  const { current, clientId, setNotice } = form;
  const [uploading, setUploading] = useState<Record<StockImageField, boolean>>({ authImage: false, docImg1: false, docImg2: false });
  const [submitting, setSubmitting] = useState(false);
  const [added, setAdded] = useState(false);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const duplicates = useStockDuplicateCheck(form.draft.wiseEmail, form.draft.wisePassword, online);
  const busyUploading = Object.values(uploading).some(Boolean);
  const busy = submitting || added;

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  /** Credentials already in stock or delivered are added only on an override: a first find shows the warning. */
  const confirmDuplicates = async () => {
    const shown = duplicates.warning;
    const found = await duplicates.checkNow();
    if (found.kind !== 'none' && found.kind !== shown.kind) return null;
    if (found.needsConfirmation) {
      const confirmed = await confirm({
        title: 'Add duplicate credentials?',
        text: 'These exact credentials are already in stock or delivered to an order. Adding them again will create duplicate credentials.',
        confirmLabel: 'Override & Add',
        danger: true,
      });
      if (!confirmed) return null;
    }
    return found.kind !== 'none' ? { overrideDuplicates: true } : {};
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || busyUploading) return;
    const { missing: absent, invalid } = draftProblems(current);
    if (absent.length > 0) {
      form.setShowMissing(true);
      setNotice(MISSING_FIELDS);
      focusFirst(absent);
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
      const override = await confirmDuplicates();
      if (!override) return;
      const stock = await unwrap(api['wise-stocks'].$post({ json: { ...toCreateBody(current, clientId), ...override } }));
      if (db) await keepOnDevice(db, { stocks: [stock] });
      requestSync().catch(() => {});
      toast.success(ADDED_MESSAGE, POPUP_MS);
      setAdded(true);
      resetTimer.current = setTimeout(() => {
        form.reset();
        setAdded(false);
      }, POPUP_MS);
    } catch (error) {
      if (hasCode(error, 'duplicate_credentials')) {
        // Found by the server meanwhile: the warning shows, and the next click is the override.
        duplicates.learn(error.details as StockDuplicateCheck);
        return;
      }
      console.error('Adding a Wise stock failed', error);
      setNotice({ ...ADD_FAILED, detail: isRefusal(error) ? error.message : undefined });
    } finally {
      setSubmitting(false);
    }
  };

  return { ...form, duplicates, setUploading, submitting, busy, busyUploading, submit };
}
