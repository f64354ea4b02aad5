import type { ReactNode } from 'react';
import { deliveryKindLabels, deliveryKinds } from '../../../../edge-api/src/contract/deliveries.ts';
import { describedBy } from '../../lib/described-by.ts';
import type { useServiceForm } from './use-service-form.tsx';
import { warrantyInputProps, WARRANTY_HINT } from './warranty-field.tsx';

// The fields the Add New Service page and the dashboard's modal share (decision 245): each written once,
// laid out by each form as the specification draws it.

type ServiceFormState = ReturnType<typeof useServiceForm>;

/**
 * What a service delivers (decision 069), the same field on the Add New Service page and in the dashboard's
 * modal (decision 245). `kindChange` is the warning shown when an edit changes it for a service with stock.
 */
export function DeliveryKindField({ form, kindChange = null }: { form: ServiceFormState; kindChange?: string | null }) {
  const { fieldId, bind, field } = form;
  const changeId = `${fieldId('deliveryKind')}-change`;
  return (
    <>
      {field(
        'deliveryKind',
        'Delivers',
        <select className="select w-full" aria-describedby={kindChange ? changeId : undefined} {...bind('deliveryKind')}>
          {deliveryKinds.map((kind) => (
            <option key={kind} value={kind}>
              {deliveryKindLabels[kind]}
            </option>
          ))}
        </select>,
      )}
      {kindChange && (
        <p id={changeId} role="status" className="alert alert-warning text-sm" data-testid="delivery-kind-change">
          {kindChange}
        </p>
      )}
    </>
  );
}

/**
 * Automatic delivery and the service's low-stock threshold (decision 061), on both service forms
 * (decision 245). `keepsStock`: the service already has stock of its own (never so for a new one).
 */
export function StockFieldset({ form, keepsStock }: { form: ServiceFormState; keepsStock: boolean }) {
  const { values, set, bind, field } = form;
  return (
    <fieldset className="space-y-2 rounded-box border border-base-300 p-3">
      <legend className="px-1 text-sm font-medium text-base-content">Stock</legend>
      <label className="label cursor-pointer gap-3 whitespace-normal text-base-content">
        <input
          type="checkbox"
          name="autoDeliver"
          className="checkbox checkbox-primary"
          checked={values.autoDeliver ?? false}
          onChange={(e) => set('autoDeliver', e.target.checked)}
        />
        Deliver automatically from stock when the order is marked paid
      </label>
      <StockHint keepsStock={keepsStock} />
      {field(
        'lowStockThreshold',
        'Low-stock threshold for this service',
        <input type="number" inputMode="numeric" min={0} step={1} className="input w-full" placeholder="The shop's threshold" {...bind('lowStockThreshold')} />,
      )}
    </fieldset>
  );
}

function StockHint({ keepsStock }: { keepsStock: boolean }): ReactNode {
  return (
    <p className="text-sm text-base-content/70">
      {keepsStock
        ? "The oldest available item of this service's own stock (Stock button on its card) goes to the order."
        : 'Wise services: the oldest available Wise stock account goes to the order. Any other service needs stock of its own first (Stock button on its card).'}
    </p>
  );
}

/** The warranty in days (decision 063), with its hint. */
export function WarrantyField({ form }: { form: ServiceFormState }) {
  const { values, set, fieldId, bind, field } = form;
  const hintId = `${fieldId('warrantyDays')}-hint`;
  return field(
    'warrantyDays',
    'Warranty (days)',
    <>
      <input
        {...bind('warrantyDays')}
        {...warrantyInputProps(values.warrantyDays, (days) => set('warrantyDays', days))}
        aria-describedby={describedBy(bind('warrantyDays')['aria-describedby'], hintId)}
      />
      <p id={hintId} className="mt-1 text-xs text-base-content/70">
        {WARRANTY_HINT}
      </p>
    </>,
  );
}
