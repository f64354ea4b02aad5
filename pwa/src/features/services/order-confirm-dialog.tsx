import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ORDER_NOTE_MAX } from '../../../../edge-api/src/contract/order-requests.ts';
import type { CouponQuote } from '../../../../edge-api/src/contract/coupons.ts';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { PriceQuote } from '../../../../edge-api/src/contract/pricing.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { instructionsFor, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { PaymentInstructionsBox } from '../../components/payment-instructions.tsx';
import { deliveryTimeLabel, paymentMethodName } from '../../lib/catalog.ts';
import { useDisplayCurrency } from '../../lib/display-currency.ts';
import { StruckPrice } from '../../lib/display-currency-price.tsx';
import { expectedDelivery, formatExpectedDelivery } from '../../lib/order-rules.ts';
import { CouponField } from './coupon-field.tsx';
import { PaymentMethodSymbol } from './payment-methods.tsx';
import { QuantityField } from './quantity-field.tsx';
import { offeredByQuantity, useQuotedQuantity } from './use-price-quote.ts';

export const NOTE_REQUIRED = 'This service needs details from you: please write them in the note.';

/** Said when the price of a quantity could not be had: the order went back to one, at the list price shown. */
export const quoteFailed = (quantity: number) =>
  `The price for ${quantity} could not be worked out (check your connection), so the quantity is back to 1, at the list price shown.`;

export const EMAIL_REQUIRED = 'Enter your email address: your sign-in link and the order go there.';

export interface OrderChoice {
  /** A signed-out visitor's address (decision 177). */
  email?: string;
  note: string;
  paymentMethod?: string;
  couponCode?: string;
  /** How many, when the service is sold by quantity (decision 178); 1 when absent. */
  quantity?: number;
}

type PriceProps = { service: Service; quote: PriceQuote | null; quantity: number; coupon: CouponQuote | null; currency: DisplayCurrency | null };

/** The price row: the list price struck when a tier, the customer's own price or a coupon lowered it; approximate in a display currency. */
function PriceRow({ service, quote, quantity, coupon, currency }: PriceProps) {
  const current = quote && quote.quantity === quantity && quote.total !== null ? quote : null;
  if (quantity > 1 && !current) return <>Working out the price…</>;
  const list = current && (quantity > 1 || current.rule !== 'list') ? current.listTotal! : service.price;
  const before = current && (quantity > 1 || current.rule !== 'list') ? current.total! : service.price;
  const charged = coupon ? coupon.price : before;
  return <StruckPrice list={list} charged={charged} currency={currency} />;
}

function OrderSummary({ service, quote, quantity, coupon, currency }: PriceProps) {
  const delivery = deliveryTimeLabel(service.deliveryTime);
  const expected = formatExpectedDelivery(expectedDelivery(new Date().toISOString(), service.deliveryTime));
  const rows: [string, ReactNode][] = [
    ['Service', quantity > 1 ? `${service.title} × ${quantity}` : service.title],
    [quantity > 1 ? 'Total' : 'Price', <PriceRow key="price" service={service} quote={quote} quantity={quantity} coupon={coupon} currency={currency} />],
    ['Delivery Time', delivery || 'Not specified'],
    ['Expected Delivery', expected],
  ];
  return (
    <dl className="grid gap-2 rounded-box bg-base-200 p-4 text-sm">
      {rows.map(([term, value], index) => (
        <div key={term} className="flex justify-between gap-4">
          <dt className="font-semibold">{term}</dt>
          <dd className={`text-right ${index === 1 ? 'font-bold' : ''}`} aria-live={index === 1 ? 'polite' : undefined}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function GuestEmailField({ id, email, error, onChange }: { id: string; email: string; error: string | null; onChange: (email: string) => void }) {
  return (
    <div>
      <label htmlFor={`${id}-email`} className="mb-1 block font-semibold">
        Your email
      </label>
      <input
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        className={`input w-full ${error ? 'input-error' : ''}`}
        value={email}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-email-hint${error ? ` ${id}-email-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-email-hint`} className="mt-1 text-xs">
        No password needed: we mail you a link that signs you in to see this order, on any device.
      </p>
      {error && (
        <p id={`${id}-email-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

function PaymentMethodFieldset({
  id,
  service,
  settings,
  method,
  onChange,
}: {
  id: string;
  service: Service;
  settings: SiteSettings;
  method: string | undefined;
  onChange: (method: string) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 font-semibold">Payment method</legend>
      <div className="flex flex-wrap gap-2">
        {service.paymentMethods.map((option) => (
          <label
            key={option}
            className={`flex cursor-pointer items-center gap-2 rounded-box border px-3 py-2 ${method === option ? 'border-primary' : 'border-base-300'}`}
          >
            <input type="radio" className="radio radio-sm" name={`${id}-method`} value={option} checked={method === option} onChange={() => onChange(option)} />
            <span className="text-primary">
              <PaymentMethodSymbol method={option} />
            </span>
            {paymentMethodName(option)}
          </label>
        ))}
      </div>
      {method && (
        <div className="rounded-box border border-base-300 p-3">
          <PaymentInstructionsBox method={method} instructions={instructionsFor(settings, method)} />
        </div>
      )}
      <p className="text-xs">You pay after placing the order; the instructions stay on the order in My Orders until it is paid.</p>
    </fieldset>
  );
}

function NoteField({
  id,
  service,
  note,
  error,
  onChange,
}: {
  id: string;
  service: Service;
  note: string;
  error: string | null;
  onChange: (note: string) => void;
}) {
  return (
    <div>
      <label htmlFor={`${id}-note`} className="mb-1 block font-semibold">
        {service.needsDetails ? 'Details for the shop (required)' : 'Note to the shop (optional)'}
      </label>
      <textarea
        id={`${id}-note`}
        className={`textarea w-full ${error ? 'textarea-error' : ''}`}
        rows={4}
        maxLength={ORDER_NOTE_MAX}
        value={note}
        required={service.needsDetails}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note-hint${error ? ` ${id}-note-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-note-hint`} className="mt-1 text-xs">
        {service.needsDetails ? service.detailsHint || 'Write the details this order is made from.' : 'Anything the shop should know about this order.'}
      </p>
      {error && (
        <p id={`${id}-note-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface OrderConfirmDialogProps {
  service: Service;
  settings: SiteSettings;
  placing: boolean;
  error: string | null;
  onConfirm: (choice: OrderChoice) => void;
  onClose: () => void;
  /** A signed-out visitor: the step asks only for an email, and takes no coupon or quantity. */
  guest?: boolean;
}

/** The confirm step's choices, and the check made before the order is sent. */
function useOrderChoice(service: Service, guest: boolean, id: string) {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [method, setMethod] = useState<string | undefined>(service.paymentMethods[0]);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  // A coupon is quoted for the quantity it was applied at: at another quantity it is off, to apply again.
  const [applied, setApplied] = useState<{ quote: CouponQuote; quantity: number } | null>(null);
  const quantity = useQuotedQuantity(service.id, !guest);
  const coupon = applied?.quantity === quantity.value ? applied.quote : null;

  const choice = (): OrderChoice | null => {
    if (guest && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setEmailError(EMAIL_REQUIRED);
      document.getElementById(`${id}-email`)?.focus();
      return null;
    }
    if (service.needsDetails && note.trim() === '') {
      setNoteError(NOTE_REQUIRED);
      document.getElementById(`${id}-note`)?.focus();
      return null;
    }
    return {
      note: note.trim(),
      paymentMethod: method,
      ...(coupon ? { couponCode: coupon.code } : {}),
      ...(guest ? { email: email.trim() } : {}),
      ...(quantity.value > 1 ? { quantity: quantity.value } : {}),
    };
  };
  return {
    email: { value: email, error: emailError, set: (value: string) => (setEmail(value), setEmailError(null)) },
    note: { value: note, error: noteError, set: (value: string) => (setNote(value), setNoteError(null)) },
    method: { value: method, set: setMethod },
    coupon: { value: coupon, set: (quote: CouponQuote | null) => setApplied(quote && { quote, quantity: quantity.value }) },
    quantity: { ...quantity, set: (value: number) => (quantity.set(value), setApplied(null)) },
    choice,
  };
}

/**
 * The summary shown before an order is placed: the service, its price (for a quantity when the shop sells
 * it by quantity), when to expect it, how to pay with each of its methods, and a note to the shop
 * (required when the service needs details).
 */
export function OrderConfirmDialog({ service, settings, placing, error, onConfirm, onClose, guest = false }: OrderConfirmDialogProps) {
  const id = useId();
  const form = useOrderChoice(service, guest, id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const choice = form.choice();
    if (choice) onConfirm(choice);
  };
  const { quote } = form.quantity;
  const currency = useDisplayCurrency(settings.displayCurrencies);

  return (
    <ModalDialog title="Confirm your order" onClose={onClose} busy={placing} className="max-w-2xl">
      <form noValidate onSubmit={submit} className="space-y-5" aria-busy={placing}>
        <OrderSummary service={service} quote={quote} quantity={form.quantity.value} coupon={form.coupon.value} currency={currency} />
        {offeredByQuantity(quote) && <QuantityField quantity={form.quantity.value} quote={quote} onChange={form.quantity.set} currency={currency} />}
        {form.quantity.failedAt !== null && (
          <p role="status" className="alert alert-warning text-sm">
            {quoteFailed(form.quantity.failedAt)}
          </p>
        )}
        {guest ? (
          <GuestEmailField id={id} email={form.email.value} error={form.email.error} onChange={form.email.set} />
        ) : (
          <CouponField productId={service.id} quantity={form.quantity.value} applied={form.coupon.value} onApplied={form.coupon.set} currency={currency} />
        )}
        {service.paymentMethods.length > 0 && (
          <PaymentMethodFieldset id={id} service={service} settings={settings} method={form.method.value} onChange={form.method.set} />
        )}
        <NoteField id={id} service={service} note={form.note.value} error={form.note.error} onChange={form.note.set} />
        {error && (
          <p role="alert" className="alert alert-error">
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn" disabled={placing} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={placing}>
            {placing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {placing ? 'Placing Order...' : 'Confirm Order'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
