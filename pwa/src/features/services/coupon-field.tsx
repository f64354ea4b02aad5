import { useId, useState } from 'react';
import type { CouponQuote } from '../../../../edge-api/src/contract/coupons.ts';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { inlinePrice } from '../../lib/display-currency.ts';
import { couponRefusal } from './coupon-refusal.ts';

function AppliedCoupon({ applied, onRemove, currency }: { applied: CouponQuote; onRemove: () => void; currency: DisplayCurrency | null }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-box border border-success p-3 text-sm" role="status">
      <span>
        Coupon <strong>{applied.code}</strong>: {inlinePrice(applied.discount, currency)} off.
      </span>
      <button type="button" className="btn btn-sm" onClick={onRemove} aria-label={`Remove coupon ${applied.code}`}>
        Remove
      </button>
    </div>
  );
}

/** Asks the server what a code takes off this quantity of the service, for this customer. */
function useCouponCheck(productId: string, quantity: number, onApplied: (quote: CouponQuote | null) => void) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const apply = async () => {
    if (!code.trim()) return setError('Enter a coupon code first.');
    setChecking(true);
    setError(null);
    try {
      onApplied(await unwrap(api.coupons.quote.$post({ json: { code: code.trim(), productId, ...(quantity > 1 ? { quantity } : {}) } })));
    } catch (cause) {
      onApplied(null);
      setError(couponRefusal(cause));
    } finally {
      setChecking(false);
    }
  };
  const type = (value: string) => {
    setCode(value);
    setError(null);
  };
  return { code, type, error, checking, apply };
}

/**
 * A coupon code in the confirm step (decision 220): Apply asks the server what it takes off, and the new
 * total shows before the order is placed. Coupons are checked online only, so offline it says so.
 */
export function CouponField({
  productId,
  quantity = 1,
  applied,
  onApplied,
  currency = null,
}: {
  productId: string;
  /** The quantity ordered (decision 178): the coupon applies to that quantity's total. */
  quantity?: number;
  applied: CouponQuote | null;
  onApplied: (quote: CouponQuote | null) => void;
  /** The customer's display currency (decision 241). */
  currency?: DisplayCurrency | null;
}) {
  const id = useId();
  const { online } = useSyncStatus();
  const { code, type, error, checking, apply } = useCouponCheck(productId, quantity, onApplied);

  if (applied) return <AppliedCoupon applied={applied} onRemove={() => onApplied(null)} currency={currency} />;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={`${id}-code`} className="mb-1 block font-semibold">
        Coupon code (optional)
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-code`}
          className={`input w-full uppercase ${error ? 'input-error' : ''}`}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={32}
          value={code}
          disabled={!online}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => type(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void apply();
            }
          }}
        />
        <button type="button" className="btn btn-outline min-h-11" disabled={!online || checking} onClick={() => void apply()}>
          {checking ? 'Checking…' : 'Apply'}
        </button>
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs">
        {online ? 'The new total shows before you order.' : 'Coupons are checked online: connect to use one.'}
      </p>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}
