import type { ReactNode } from 'react';

export interface ModalFormActionsProps {
  onCancel: () => void;
  /** The form is being sent: both buttons wait, and the submit button spins. */
  busy: boolean;
  submitLabel: ReactNode;
  /** The form cannot be sent yet (empty, offline, an upload under way). */
  submitDisabled?: boolean;
  /** `danger` for a submit that overrides a warning or turns something down. */
  tone?: 'primary' | 'danger';
}

/** A form dialog's footer: Cancel, and its submit button with a spinner while the form is being sent. */
export function ModalFormActions({ onCancel, busy, submitLabel, submitDisabled = false, tone = 'primary' }: ModalFormActionsProps) {
  return (
    <div className="modal-action">
      <button type="button" className="btn" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type="submit"
        className={`btn ${tone === 'danger' ? 'btn-error' : 'btn-primary'}`}
        disabled={busy || submitDisabled}
        aria-busy={busy || undefined}
      >
        {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {submitLabel}
      </button>
    </div>
  );
}
