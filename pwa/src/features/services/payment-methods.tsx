import type { ReactNode } from 'react';
import { LineIcon } from '../../components/line-icon.tsx';

const frame = (children: ReactNode) => <LineIcon className="h-6 w-6">{children}</LineIcon>;

/** The symbols the spec names; any other method gets the generic card. */
const symbols: Record<string, ReactNode> = {
  binance: frame(
    <>
      <path d="M12 3l3 3-3 3-3-3zM12 15l3 3-3 3-3-3zM3 12l3-3 3 3-3 3zM15 12l3-3 3 3-3 3z" />
    </>,
  ),
  remitly: frame(
    <>
      <path d="M4 17L12 5l8 12" />
      <path d="M8 13h8" />
    </>,
  ),
  ach: frame(
    <>
      <path d="M4 8h13l-3-3M20 16H7l3 3" />
    </>,
  ),
  wise: frame(<path d="M3 6h7l-3 5h6l-9 9 4-7H3z" />),
  payoneer: frame(
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="4" />
    </>,
  ),
  xoom: frame(
    <>
      <path d="M5 5l14 14M19 5L5 19" />
      <circle cx="12" cy="12" r="9" />
    </>,
  ),
  paypal: frame(
    <>
      <path d="M8 20l2-14h6a4 4 0 0 1 0 8h-5" />
      <path d="M6 17l1.5-9" />
    </>,
  ),
  stripe: frame(<path d="M16 7.5C15 6.5 13.7 6 12 6c-2.2 0-3.5 1.1-3.5 2.6 0 3.6 7 2.2 7 6 0 1.5-1.4 3.4-4 3.4-1.8 0-3.3-.6-4.5-1.7" />),
  bank: frame(
    <>
      <path d="M3 10l9-6 9 6M5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 20h18" />
    </>,
  ),
};

const card = frame(
  <>
    <rect x="3" y="6" width="18" height="13" rx="2" />
    <path d="M3 10h18M7 15h3" />
  </>,
);

export function PaymentMethodSymbol({ method }: { method: string }) {
  return <>{symbols[method.toLowerCase()] ?? card}</>;
}
