import { createContext, use, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { ModalBackdrop } from './modal-dialog.tsx';
import { describedBy } from '../lib/described-by.ts';

export interface ConfirmOptions {
  title: string;
  /**
   * What the action is about, named so nobody deletes the wrong thing: one line each, the first in bold
   * (an order's short id and title, then its customer; a user's name, then their email).
   */
  subject?: readonly string[];
  text?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: red confirm button, and focus starts on Cancel. */
  danger?: boolean;
}

export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

/** A question with a safer third answer beside confirm and cancel (sign out: send, discard or stay). */
export interface ChoiceOptions extends ConfirmOptions {
  /** The third button, a primary one placed before the confirm button. */
  alternativeLabel: string;
}

export type Choice = 'confirm' | 'alternative' | 'cancel';
export type Choose = (options: ChoiceOptions) => Promise<Choice>;

interface OpenRequest extends ConfirmOptions {
  alternativeLabel?: string;
  resolve: (choice: Choice) => void;
}

const ConfirmContext = createContext<{ confirm: Confirm; choose: Choose } | null>(null);

/**
 * One accessible confirmation dialog for the whole app: a native modal <dialog> (the rest of the page is
 * inert while it is open, Escape cancels), resolving true only on the confirm button.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<OpenRequest | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const current = useRef<OpenRequest | null>(null);
  const titleId = useId();
  const subjectId = useId();
  const textId = useId();

  const settle = useCallback((choice: Choice) => {
    const open = current.current;
    current.current = null;
    open?.resolve(choice);
    setRequest(null);
    const dialog = dialogRef.current;
    if (dialog?.open) dialog.close();
  }, []);

  const choose = useCallback<Choose>(
    (options) =>
      new Promise<Choice>((resolve) => {
        // A second question replaces an unanswered first one, which counts as cancelled.
        current.current?.resolve('cancel');
        const next = { ...options, resolve };
        current.current = next;
        setRequest(next);
      }),
    [],
  );
  const confirm = useCallback<Confirm>(async (options) => (await choose({ ...options, alternativeLabel: '' })) === 'confirm', [choose]);
  const value = useMemo(() => ({ confirm, choose }), [confirm, choose]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!request || !dialog) return;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [request]);

  useEffect(() => () => current.current?.resolve('cancel'), []);

  return (
    <ConfirmContext value={value}>
      {children}
      <dialog
        ref={dialogRef}
        className="modal modal-bottom sm:modal-middle"
        aria-labelledby={titleId}
        aria-describedby={describedBy(request?.subject?.length ? subjectId : '', request?.text ? textId : '')}
        onClose={() => settle('cancel')}
      >
        {request && (
          <>
            <ConfirmBox request={request} ids={{ titleId, subjectId, textId }} settle={settle} />
            {/* A click beside the box cancels, as Escape does. */}
            <ModalBackdrop />
          </>
        )}
      </dialog>
    </ConfirmContext>
  );
}

/** The dialog's box: title, subject, text and its two or three buttons. */
function ConfirmBox({
  request,
  ids,
  settle,
}: {
  request: OpenRequest;
  ids: { titleId: string; subjectId: string; textId: string };
  settle: (choice: Choice) => void;
}) {
  const { titleId, subjectId, textId } = ids;
  return (
    <div className="modal-box">
      <h2 id={titleId} className="text-lg font-bold">
        {request.title}
      </h2>
      {request.subject && request.subject.length > 0 && (
        <div id={subjectId} className="mt-4 rounded-box border border-base-300 bg-base-200 px-4 py-3 break-words">
          {request.subject.map((line, index) => (
            <p key={index} className={index === 0 ? 'font-semibold' : 'text-sm text-base-content/80'}>
              {line}
            </p>
          ))}
        </div>
      )}
      {request.text && (
        <p id={textId} className="py-4">
          {request.text}
        </p>
      )}
      <div className="modal-action">
        <button type="button" className="btn" data-autofocus={request.danger ? '' : undefined} onClick={() => settle('cancel')}>
          {request.cancelLabel ?? 'Cancel'}
        </button>
        {request.alternativeLabel && (
          <button type="button" className="btn btn-primary" onClick={() => settle('alternative')}>
            {request.alternativeLabel}
          </button>
        )}
        <button
          type="button"
          className={`btn ${request.danger ? 'btn-error' : 'btn-primary'}`}
          data-autofocus={request.danger ? undefined : ''}
          onClick={() => settle('confirm')}
        >
          {request.confirmLabel ?? 'Confirm'}
        </button>
      </div>
    </div>
  );
}

export function useConfirm(): Confirm {
  const context = use(ConfirmContext);
  if (!context) throw new Error('useConfirm() needs a <ConfirmProvider> above it');
  return context.confirm;
}

/** The same dialog with three answers: confirm, the alternative, or cancel (Escape, a click beside it). */
export function useChoose(): Choose {
  const context = use(ConfirmContext);
  if (!context) throw new Error('useChoose() needs a <ConfirmProvider> above it');
  return context.choose;
}
