import type { PaymentInstructions } from '../../../edge-api/src/contract/settings.ts';
import { paymentMethodName } from '../lib/catalog.ts';
import { useToast } from './toast.tsx';

/** Copies one value, saying so in a toast. */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  const toast = useToast();
  const copy = () => {
    if (!navigator.clipboard) return toast.error('Copying is not available in this browser.');
    navigator.clipboard.writeText(value).then(
      () => toast.success(`${label} copied`),
      () => toast.error('Could not copy. Please select and copy it by hand.'),
    );
  };
  return (
    <button type="button" className="btn btn-outline btn-xs shrink-0" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <rect x="9" y="9" width="11" height="11" rx="2" />
        <path d="M5 15V5a1 1 0 0 1 1-1h10" />
      </svg>
      Copy
    </button>
  );
}

/**
 * How to pay with one method, as staff wrote it in the settings: where to send (with a copy button), to
 * whom, a line of instructions and an optional QR code. Without instructions, says to ask the shop.
 */
export function PaymentInstructionsBox({ method, instructions }: { method: string; instructions: PaymentInstructions | undefined }) {
  const name = paymentMethodName(method);
  if (!instructions) {
    return <p className="text-sm">The shop sends the {name} payment details in the chat: use Complete Payment to ask for them.</p>;
  }
  return (
    <div className="space-y-2 text-sm" data-testid={`payment-instructions-${method.toLowerCase()}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{name} number or address:</span>
        <span className="font-mono break-all">{instructions.address}</span>
        <CopyValueButton value={instructions.address} label={`${name} number`} />
      </div>
      {instructions.accountName && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold">Account name:</span>
          <span className="break-all">{instructions.accountName}</span>
          <CopyValueButton value={instructions.accountName} label="Account name" />
        </div>
      )}
      {instructions.instructions && <p className="whitespace-pre-line">{instructions.instructions}</p>}
      {instructions.qrImage && <img src={instructions.qrImage} alt={`${name} payment QR code`} className="h-40 w-40 rounded-box bg-white object-contain p-2" loading="lazy" />}
    </div>
  );
}
