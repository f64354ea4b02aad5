import type { PaymentInstructions } from '../../../edge-api/src/contract/settings.ts';
import { paymentMethodName } from '../lib/catalog.ts';
import { CopyButton } from './copy-button.tsx';

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
        <CopyButton size="xs" value={instructions.address} label={`${name} number`} />
      </div>
      {instructions.accountName && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold">Account name:</span>
          <span className="break-all">{instructions.accountName}</span>
          <CopyButton size="xs" value={instructions.accountName} label="Account name" />
        </div>
      )}
      {instructions.instructions && <p className="whitespace-pre-line">{instructions.instructions}</p>}
      {instructions.qrImage && (
        <img src={instructions.qrImage} alt={`${name} payment QR code`} className="h-40 w-40 rounded-box bg-white object-contain p-2" loading="lazy" />
      )}
    </div>
  );
}
