import type { ReactNode } from 'react';

/** A screen (or panel) still loading; announced politely. */
/**
 * `fill`: at least a screen high, for a list that replaces it: whatever follows (the footer) starts
 * below the screen and is not pushed down when the list arrives (no layout shift).
 */
export function LoadingState({ text = 'Loading...', fill = false }: { text?: string; fill?: boolean }) {
  return (
    <div
      className={`flex ${fill ? 'min-h-screen' : 'min-h-[40vh]'} flex-col items-center justify-center gap-3 p-8 text-center`}
      role="status"
      aria-live="polite"
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <p className="text-base-content/80">{text}</p>
    </div>
  );
}

export interface ErrorStateProps {
  title: string;
  message?: string;
  onRetry?: () => void;
  retryLabel?: string;
  /** Extra actions beside Try Again, e.g. a Go Back link. */
  children?: ReactNode;
}

/** Something failed: what, and what the person can do about it. */
export function ErrorState({ title, message, onRetry, retryLabel = 'Try Again', children }: ErrorStateProps) {
  return (
    <div className="flex min-h-[40vh] flex-col items-center justify-center gap-4 p-8 text-center" role="alert">
      <div className="flex h-16 w-16 items-center justify-center rounded-full bg-error/10 text-error" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <circle cx="12" cy="12" r="10" />
          <path d="M12 7v6M12 16.5v.5" />
        </svg>
      </div>
      <h2 className="text-2xl font-bold">{title}</h2>
      {message && <p className="max-w-md text-base-content/80">{message}</p>}
      <div className="flex flex-wrap justify-center gap-2">
        {onRetry && (
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            {retryLabel}
          </button>
        )}
        {children}
      </div>
    </div>
  );
}

export interface EmptyStateProps {
  title: string;
  text?: string;
  /** A button or link leading somewhere useful, e.g. 'Browse Services'. */
  action?: ReactNode;
}

/** Nothing to show yet. */
export function EmptyState({ title, text, action }: EmptyStateProps) {
  return (
    <div className="flex min-h-[30vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <div className="flex h-16 w-16 items-center justify-center rounded-full bg-base-200 text-base-content/60" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
          <path d="M3 7l9-4 9 4-9 4-9-4zM3 7v10l9 4 9-4V7" />
        </svg>
      </div>
      <h2 className="text-xl font-semibold">{title}</h2>
      {text && <p className="max-w-md text-base-content/70">{text}</p>}
      {action}
    </div>
  );
}
