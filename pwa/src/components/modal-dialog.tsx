import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ModalDialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra classes of the box, e.g. a wider `max-w-3xl`. */
  className?: string;
  /** While true (e.g. saving) the close button is disabled and Escape does nothing. */
  busy?: boolean;
  /** A click beside the box closes the dialog too. */
  closeOnBackdrop?: boolean;
}

/**
 * A native modal <dialog> with a titled header: the page behind is inert, focus stays inside, Escape and
 * the close button call onClose. Mounted when it should show, unmounted when it closes.
 */
export function ModalDialog({ title, onClose, children, className, busy = false, closeOnBackdrop = false }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const latest = useRef({ onClose, busy });
  useEffect(() => {
    latest.current = { onClose, busy };
  });
  const close = () => {
    if (!latest.current.busy) latest.current.onClose();
  };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <div className={className ? `modal-box ${className}` : 'modal-box'}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-bold">
            {title}
          </h2>
          <button type="button" className="btn btn-ghost btn-sm btn-circle" aria-label="Close" disabled={busy} onClick={close}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        {children}
      </div>
      {closeOnBackdrop && <ModalBackdrop onClose={close} />}
    </dialog>
  );
}

/**
 * daisyUI's click-beside-the-box area. Pointer only: keyboards have Escape, so the button is kept out of
 * the tab order and the accessibility tree (a second, invisible "close" would only confuse).
 * Without onClose it submits its `method="dialog"` form, which closes the dialog natively.
 */
export function ModalBackdrop({ onClose }: { onClose?: () => void }) {
  return (
    <form method="dialog" className="modal-backdrop">
      <button
        type="submit"
        tabIndex={-1}
        aria-hidden="true"
        onClick={
          onClose
            ? (event) => {
                event.preventDefault();
                onClose();
              }
            : undefined
        }
      >
        close
      </button>
    </form>
  );
}
