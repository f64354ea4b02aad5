import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * The frame both sign-in screens share: a centred card with a heading and a short line under it, and why
 * the visitor was sent here when a screen that needs an account said so.
 */
export function AuthCard({ title, subtitle, reason, children }: { title: string; subtitle: string; reason?: string | null; children: ReactNode }) {
  return (
    <div className="flex min-h-[80vh] items-center justify-center bg-gradient-to-br from-primary/5 via-base-100 to-secondary/5 px-4 py-10">
      <div className="card w-full max-w-md border border-base-300 bg-base-100 shadow-xl">
        <div className="card-body gap-5">
          <header className="text-center">
            <h1 className="text-3xl font-bold">{title}</h1>
            <p className="mt-1 text-base-content/80">{subtitle}</p>
          </header>
          {reason && (
            <p role="status" className="alert alert-info alert-soft">
              {reason}
            </p>
          )}
          {children}
        </div>
      </div>
    </div>
  );
}

/** A labelled text field in the sign-in screens' style. */
export function TextField({ id, label, ...input }: { id: string; label: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <div>
      <label className="label mb-1 block text-sm font-medium text-base-content" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input w-full" {...input} />
    </div>
  );
}

export function FormError({ message }: { message: string | null }) {
  // Always rendered so the alert region exists before its text arrives.
  return (
    <div role="alert" className={message ? 'alert alert-error alert-soft' : 'hidden'}>
      {message && <span>{message}</span>}
    </div>
  );
}
