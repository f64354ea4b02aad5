import { useId, useState, type InputHTMLAttributes } from 'react';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: string;
  /** Shown under the field and read with it, e.g. 'Minimum 6 characters'. */
  hint?: string;
  id?: string;
  /** Marks the label with the red star of a form whose required fields carry one (read as required from the input). */
  requiredMark?: boolean;
}

/** A labelled password field with a show/hide toggle; masked until the person reveals it. */
export function PasswordInput({ label, hint, id, className, requiredMark = false, ...input }: PasswordInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const [visible, setVisible] = useState(false);

  return (
    <div className={className}>
      <label className="label mb-1 block text-sm font-medium text-base-content" htmlFor={inputId}>
        {label}
        {requiredMark && (
          <>
            {' '}
            <span aria-hidden="true" className="text-error">
              *
            </span>
          </>
        )}
      </label>
      <div className="join w-full">
        <input
          {...input}
          id={inputId}
          type={visible ? 'text' : 'password'}
          className="input join-item w-full"
          aria-describedby={hint ? hintId : undefined}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
        <button
          type="button"
          className="btn join-item"
          aria-label="Show password"
          aria-pressed={visible}
          aria-controls={inputId}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {hint}
        </p>
      )}
    </div>
  );
}

function EyeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

function EyeOffIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M2 12s3.5-7 10-7c2 0 3.7.6 5.1 1.5M22 12s-3.5 7-10 7c-2 0-3.7-.6-5.1-1.5" />
      <path d="M3 3l18 18" />
    </svg>
  );
}
