import { useId, useState, type FormEvent } from 'react';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import { isStockStatus, stockStatuses, type WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import { dismissFailed, setStockStatus } from '../../db/mutations.ts';
import { serverOutcome } from '../../db/server-outcome.ts';
import { isApiAnswer } from '../../lib/app-error.ts';
import { STATUS_FAILED_MESSAGE, STATUS_UPDATED_MESSAGE, statusFormProblem, toStatusChange, type StatusForm } from './status-change.ts';
import { statusLabel } from './stock-status.ts';

export interface UpdateStatusModalProps {
  stock: WiseStock;
  /** Buyers to choose from; undefined while loading. */
  users: User[] | undefined;
  /** The signed-in admin (whose outbox the change goes to). */
  userId: string;
  onClose: () => void;
}

/** The buyer as the picker lists them: name, email and role (spec: users with their userRole). */
export const buyerOptionLabel = (user: User): string =>
  user.displayName.trim() ? `${user.displayName.trim()} — ${user.email} (${user.userRole})` : `${user.email} (${user.userRole})`;

/** The modal's form and its submit: checked first, then queued through the outbox. */
function useStatusForm({ stock, userId, onClose }: Omit<UpdateStatusModalProps, 'users'>) {
  const toast = useToast();
  const [form, setForm] = useState<StatusForm>({
    status: isStockStatus(stock.status) ? stock.status : '',
    soldTo: stock.status === 'sold' ? (stock.soldTo ?? '') : '',
    notes: stock.notes ?? '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const edit = (patch: Partial<StatusForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setProblem(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const invalid = statusFormProblem(form);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setSaving(true);
    let entryId: string | null = null;
    try {
      const handle = setStockStatus(userId, toStatusChange(stock, form), { shown: { stocks: [stock] } });
      entryId = handle.id;
      await handle.saved;
      const outcome = await serverOutcome(handle.done);
      toast.success(outcome === 'confirmed' ? STATUS_UPDATED_MESSAGE : `${STATUS_UPDATED_MESSAGE}. It will sync when you are back online.`);
      onClose();
    } catch (error) {
      console.error('Stock status update failed', error);
      toast.error(STATUS_FAILED_MESSAGE);
      setProblem(isApiAnswer(error) ? `${STATUS_FAILED_MESSAGE}: ${error.message}` : STATUS_FAILED_MESSAGE);
      // Refused by the server: said here, so it need not wait in the failed-changes list as well.
      if (entryId && isApiAnswer(error)) void dismissFailed(userId, entryId);
    } finally {
      setSaving(false);
    }
  };

  return { form, problem, saving, edit, submit };
}

interface BuyerSelectProps {
  id: string;
  problemId: string | undefined;
  value: string;
  invalid: boolean;
  users: User[] | undefined;
  onChange: (soldTo: string) => void;
}

function BuyerSelect({ id, problemId, value, invalid, users, onChange }: BuyerSelectProps) {
  return (
    <div>
      <label htmlFor={id} className="label mb-1 block text-sm font-medium text-base-content">
        Sold To User
      </label>
      <select
        id={id}
        className="select w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={problemId}
        disabled={users === undefined}
      >
        <option value="">{users === undefined ? 'Loading users...' : 'Select a user'}</option>
        {(users ?? []).map((user) => (
          <option key={user.uid} value={user.uid}>
            {buyerOptionLabel(user)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Update Stock Status: queued through the outbox (setStockStatus), so it works offline and syncs later;
 * online it waits for the server's word before closing.
 */
export function UpdateStatusModal({ stock, users, userId, onClose }: UpdateStatusModalProps) {
  const { form, problem, saving, edit, submit } = useStatusForm({ stock, userId, onClose });
  const ids = { status: useId(), soldTo: useId(), notes: useId(), problem: useId() };
  const selling = form.status === 'sold';

  return (
    <ModalDialog title="Update Stock Status" onClose={onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <div>
          <label htmlFor={ids.status} className="label mb-1 block text-sm font-medium text-base-content">
            Status
          </label>
          <select
            id={ids.status}
            className="select w-full"
            value={form.status}
            onChange={(event) => edit({ status: event.target.value })}
            aria-invalid={problem !== null && !isStockStatus(form.status) ? true : undefined}
            aria-describedby={problem ? ids.problem : undefined}
          >
            <option value="">Select a status</option>
            {stockStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        {selling && (
          <BuyerSelect
            id={ids.soldTo}
            problemId={problem ? ids.problem : undefined}
            value={form.soldTo}
            invalid={problem !== null && !form.soldTo}
            users={users}
            onChange={(soldTo) => edit({ soldTo })}
          />
        )}
        <div>
          <label htmlFor={ids.notes} className="label mb-1 block text-sm font-medium text-base-content">
            Notes (optional)
          </label>
          <textarea id={ids.notes} className="textarea w-full" rows={3} value={form.notes} onChange={(event) => edit({ notes: event.target.value })} />
        </div>
        {problem && (
          <p id={ids.problem} role="alert" className="alert alert-error text-sm">
            {problem}
          </p>
        )}
        <ModalFormActions onCancel={onClose} busy={saving} submitLabel="Update Status" />
      </form>
    </ModalDialog>
  );
}
