import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

type ToastKind = 'success' | 'error' | 'info';

interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
}

export interface Toast {
  /** Shown for `ms` milliseconds, 2000 by default (spec: toasts last 2 seconds). */
  success(text: string, ms?: number): void;
  /** Errors stay longer by default (5000 ms) so they can be read. */
  error(text: string, ms?: number): void;
  info(text: string, ms?: number): void;
}

const DEFAULT_MS: Record<ToastKind, number> = { success: 2000, info: 2000, error: 5000 };
const ALERT_CLASS: Record<ToastKind, string> = { success: 'alert-success', info: 'alert-info', error: 'alert-error' };

const ToastContext = createContext<Toast | null>(null);

/** Short messages in a daisyUI toast, announced politely to screen readers. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setItems((list) => list.filter((item) => item.id !== id));
  }, []);

  const show = useCallback(
    (kind: ToastKind, text: string, ms?: number) => {
      const id = nextId.current++;
      setItems((list) => [...list, { id, kind, text }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), ms ?? DEFAULT_MS[kind]),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const toast = useMemo<Toast>(
    () => ({
      success: (text, ms) => show('success', text, ms),
      error: (text, ms) => show('error', text, ms),
      info: (text, ms) => show('info', text, ms),
    }),
    [show],
  );

  return (
    <ToastContext value={toast}>
      {children}
      {/*
        Always in the DOM, so screen readers announce what is added to it. On a phone at the bottom, above a
        sticky bar if the page has one (--bottom-bar-height), never over the header's buttons; top right on
        wider screens.
      */}
      <div
        className="toast toast-bottom toast-center z-[1000] max-sm:bottom-[calc(1rem+var(--bottom-bar-height,0px))] max-sm:w-[calc(100vw-2rem)] sm:toast-top sm:toast-end"
        aria-live="polite"
        aria-atomic="false"
      >
        {items.map((item) => (
          <div key={item.id} className={`alert ${ALERT_CLASS[item.kind]} shadow-lg`}>
            <span>{item.text}</span>
            <button type="button" className="btn btn-ghost btn-xs btn-circle" aria-label="Dismiss notification" onClick={() => dismiss(item.id)}>
              <span aria-hidden="true">✕</span>
            </button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}

export function useToast(): Toast {
  const toast = use(ToastContext);
  if (!toast) throw new Error('useToast() needs a <ToastProvider> above it');
  return toast;
}
