import { useToast } from './toast.tsx';

/** Copies one value to the clipboard, saying so (or why not) in a toast. */
export function CopyButton({ value, label, size = 'sm' }: { value: string; label: string; size?: 'sm' | 'xs' }) {
  const toast = useToast();
  const copy = () => {
    if (!navigator.clipboard) return toast.error('Copying is not available in this browser.');
    navigator.clipboard.writeText(value).then(
      () => toast.success(`${label} copied`),
      () => toast.error('Could not copy. Please select and copy it by hand.'),
    );
  };
  return (
    <button
      type="button"
      className={`btn btn-outline shrink-0 ${size === 'xs' ? 'btn-xs' : 'btn-sm'}`}
      onClick={copy}
      aria-label={`Copy ${label.toLowerCase()}`}
    >
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <rect x="9" y="9" width="11" height="11" rx="2" />
        <path d="M5 15V5a1 1 0 0 1 1-1h10" />
      </svg>
      Copy
    </button>
  );
}
