import { useId, useState, type FormEvent } from 'react';
import { ORDER_NOTE_MAX } from '../../../../edge-api/src/contract/order-requests.ts';
import type { CouponQuote } from '../../../../edge-api/src/contract/coupons.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { instructionsFor, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { PaymentInstructionsBox } from '../../components/payment-instructions.tsx';
import { deliveryTimeLabel, paymentMethodName } from '../../lib/catalog.ts';
import { expectedDelivery, formatExpectedDelivery } from '../../lib/order-rules.ts';
import { CouponField } from './coupon-field.tsx';
import { PaymentMethodSymbol } from './payment-methods.tsx';

export const NOTE_REQUIRED = 'This service needs details from you: please write them in the note.';

export const EMAIL_REQUIRED = 'Enter your email address: your sign-in link and the order go there.';

export interface OrderChoice {
  /** A signed-out visitor's address (decision 177). */
  email?: string;
  note: string;
  paymentMethod?: string;
  couponCode?: string;
}

/**
 * The summary shown before an order is placed: the service, its price, when to expect it, how to pay
 * with each of its methods, and a note to the shop (required when the service needs details).
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function OrderConfirmDialog({
  service,
  settings,
  placing,
  error,
  onConfirm,
  onClose,
  guest = false,
}: {
  service: Service;
  settings: SiteSettings;
  placing: boolean;
  error: string | null;
  onConfirm: (choice: OrderChoice) => void;
  onClose: () => void;
  /** A signed-out visitor: the step asks only for an email, and takes no coupon. */
  guest?: boolean;
}) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [method, setMethod] = useState<string | undefined>(service.paymentMethods[0]);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [coupon, setCoupon] = useState<CouponQuote | null>(null);
  const delivery = deliveryTimeLabel(service.deliveryTime);
  const expected = formatExpectedDelivery(expectedDelivery(new Date().toISOString(), service.deliveryTime));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (guest && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setEmailError(EMAIL_REQUIRED);
      document.getElementById(`${id}-email`)?.focus();
      return;
    }
    if (service.needsDetails && note.trim() === '') {
      setNoteError(NOTE_REQUIRED);
      document.getElementById(`${id}-note`)?.focus();
      return;
    }
    onConfirm({ note: note.trim(), paymentMethod: method, ...(coupon ? { couponCode: coupon.code } : {}), ...(guest ? { email: email.trim() } : {}) });
  };

  return (
    <ModalDialog title="Confirm your order" onClose={onClose} busy={placing} className="max-w-2xl">
      <form noValidate onSubmit={submit} className="space-y-5" aria-busy={placing}>
        <dl className="grid gap-2 rounded-box bg-base-200 p-4 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="font-semibold">Service</dt>
            <dd className="text-right">{service.title}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="font-semibold">Price</dt>
            <dd className="text-right font-bold">
              {coupon ? (
                <>
                  <s className="mr-2 font-normal">${service.price}</s>${coupon.price} USD
                </>
              ) : (
                <>${service.price} USD</>
              )}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="font-semibold">Delivery Time</dt>
            <dd className="text-right">{delivery || 'Not specified'}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="font-semibold">Expected Delivery</dt>
            <dd className="text-right">{expected}</dd>
          </div>
        </dl>

        {guest ? (
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
              className={`input w-full ${emailError ? 'input-error' : ''}`}
              value={email}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={`${id}-email-hint${emailError ? ` ${id}-email-error` : ''}`}
              onChange={(event) => {
                setEmail(event.target.value);
                setEmailError(null);
              }}
            />
            <p id={`${id}-email-hint`} className="mt-1 text-xs">
              No password needed: we mail you a link that signs you in to see this order, on any device.
            </p>
            {emailError && (
              <p id={`${id}-email-error`} className="mt-1 text-sm text-error">
                {emailError}
              </p>
            )}
          </div>
        ) : (
          <CouponField productId={service.id} applied={coupon} onApplied={setCoupon} />
        )}

        {service.paymentMethods.length > 0 && (
          <fieldset className="space-y-2">
            <legend className="mb-2 font-semibold">Payment method</legend>
            <div className="flex flex-wrap gap-2">
              {service.paymentMethods.map((option) => (
                <label
                  key={option}
                  className={`flex cursor-pointer items-center gap-2 rounded-box border px-3 py-2 ${method === option ? 'border-primary' : 'border-base-300'}`}
                >
                  <input
                    type="radio"
                    className="radio radio-sm"
                    name={`${id}-method`}
                    value={option}
                    checked={method === option}
                    onChange={() => setMethod(option)}
                  />
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
        )}

        <div>
          <label htmlFor={`${id}-note`} className="mb-1 block font-semibold">
            {service.needsDetails ? 'Details for the shop (required)' : 'Note to the shop (optional)'}
          </label>
          <textarea
            id={`${id}-note`}
            className={`textarea w-full ${noteError ? 'textarea-error' : ''}`}
            rows={4}
            maxLength={ORDER_NOTE_MAX}
            value={note}
            required={service.needsDetails}
            aria-invalid={noteError ? true : undefined}
            aria-describedby={`${id}-note-hint${noteError ? ` ${id}-note-error` : ''}`}
            onChange={(event) => {
              setNote(event.target.value);
              setNoteError(null);
            }}
          />
          <p id={`${id}-note-hint`} className="mt-1 text-xs">
            {service.needsDetails ? service.detailsHint || 'Write the details this order is made from.' : 'Anything the shop should know about this order.'}
          </p>
          {noteError && (
            <p id={`${id}-note-error`} className="mt-1 text-sm text-error">
              {noteError}
            </p>
          )}
        </div>

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
