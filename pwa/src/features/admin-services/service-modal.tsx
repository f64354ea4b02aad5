import { useLiveQuery } from 'dexie-react-hooks';
import { useState, type FormEvent } from 'react';
import { useUserDb } from '../../db/hooks.ts';
import { deliveryKindChangeNote } from './delivery-kind-change.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { categoryLabel, deliveryTimeIds, deliveryTimeLabel, paymentMethodIds, paymentMethodName, serviceCategoryIds } from '../../lib/catalog.ts';
import { ListField } from './list-field.tsx';
import { choicesWith, emptyModalValues, toServiceBody, validateModal, valuesFromService, type ServiceBody, type ServiceField } from './service-form.ts';
import { useServiceForm } from './use-service-form.tsx';
import { DetailsFields } from './details-fields.tsx';
import { DeliveryKindField, StockFieldset, WarrantyField } from './service-fields.tsx';

export interface ServiceModalProps {
  /** The service being edited; null creates a new one. */
  service: Service | null;
  /** Saves the body; a rejection's message is shown in the modal, which stays open. */
  save: (body: ServiceBody) => Promise<void>;
  onClose: () => void;
}

const fieldOrder: ServiceField[] = ['title', 'category', 'description', 'price', 'deliveryTime', 'deliveryKind', 'warrantyDays', 'image', 'lowStockThreshold'];

/**
 * The dashboard's create/edit modal (a native modal <dialog>). Mounted while open: closing it, by Cancel or
 * after a save, drops what was typed, so it opens fresh next time.
 */
export function ServiceModal({ service, save, onClose }: ServiceModalProps) {
  const form = useServiceForm(() => (service ? valuesFromService(service) : emptyModalValues()), fieldOrder);
  const { formRef, values, set, showProblems } = form;
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = service !== null;
  const { keepsStock, onShelf } = useOwnStock(service);
  const kindChange = service ? deliveryKindChangeNote(service.deliveryKind ?? 'account', values.deliveryKind ?? 'account', onShelf, service.category) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (showProblems(validateModal(values, keepsStock))) return;
    setSaving(true);
    setSaveError(null);
    try {
      await save(toServiceBody(values));
    } catch (error) {
      setSaveError(error instanceof Error ? error.message : String(error));
      setSaving(false);
    }
  };

  return (
    <ModalDialog title={editing ? 'Edit Service' : 'Add New Service'} onClose={onClose} busy={saving} className="max-w-2xl">
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {saveError && (
          <p role="alert" className="alert alert-error">
            {saveError}
          </p>
        )}
        <MainFields form={form} kindChange={kindChange} />
        <ListFields features={values.features} paymentMethods={values.paymentMethods} set={set} />
        <label className="label cursor-pointer gap-3 text-base-content">
          <input type="checkbox" className="checkbox checkbox-primary" checked={values.popular} onChange={(e) => set('popular', e.target.checked)} />
          Mark as popular service
        </label>
        <StockFieldset form={form} keepsStock={keepsStock} />
        <DetailsFields values={values} set={set} />
        <ModalFormActions onCancel={() => onClose()} busy={saving} submitLabel={editing ? 'Update Service' : 'Create Service'} />
      </form>
    </ModalDialog>
  );
}

/** Stock of its own (decision 072, as synced): such a service may deliver automatically whatever its category. */
function useOwnStock(service: Service | null) {
  const db = useUserDb();
  const keepsStock =
    useLiveQuery(async () => (db && service ? (await db.serviceStocks.where('serviceId').equals(service.id).count()) > 0 : false), [db, service?.id]) ?? false;
  const onShelf =
    useLiveQuery(
      async () => (db && service ? (await db.serviceStocks.where('serviceId').equals(service.id).toArray()).filter((item) => item.status === 'available') : []),
      [db, service?.id],
    ) ?? [];
  return { keepsStock, onShelf };
}

type ServiceFormState = ReturnType<typeof useServiceForm>;
type SetField = ServiceFormState['set'];

function ListFields({ features, paymentMethods, set }: { features: string[]; paymentMethods: string[]; set: SetField }) {
  return (
    <>
      <ListField
        legend="Features"
        itemLabel="Feature"
        addLabel="Add Feature"
        items={features}
        onChange={(features) => set('features', features)}
        renderItem={({ value, label, onChange }) => (
          <input className="input input-sm w-full" aria-label={label} placeholder="Enter a feature" value={value} onChange={(e) => onChange(e.target.value)} />
        )}
      />
      <ListField
        legend="Payment Methods"
        itemLabel="Payment Method"
        addLabel="Add Payment Method"
        items={paymentMethods}
        onChange={(paymentMethods) => set('paymentMethods', paymentMethods)}
        renderItem={({ value, label, onChange }) => (
          <select className="select select-sm w-full" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">Select a payment method</option>
            {choicesWith(paymentMethodIds, value).map((method) => (
              <option key={method} value={method}>
                {paymentMethodName(method)}
              </option>
            ))}
          </select>
        )}
      />
    </>
  );
}

/** Title to image: the service's own fields, each labelled and checked by the form. */
function MainFields({ form, kindChange }: { form: ServiceFormState; kindChange: string | null }) {
  const { values, bind, field } = form;
  return (
    <>
      {field('title', 'Title', <input className="input w-full" required {...bind('title')} />)}
      {field(
        'category',
        'Category',
        <select className="select w-full" required {...bind('category')}>
          <option value="">Select a category</option>
          {choicesWith(serviceCategoryIds, values.category).map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category)}
            </option>
          ))}
        </select>,
      )}
      {field('description', 'Description', <textarea className="textarea w-full" rows={3} required {...bind('description')} />)}
      <div className="grid gap-4 sm:grid-cols-2">
        {field('price', 'Price', <input type="text" className="input w-full" required {...bind('price')} />)}
        {field(
          'deliveryTime',
          'Delivery Time',
          <select className="select w-full" required {...bind('deliveryTime')}>
            <option value="">Select delivery time</option>
            {choicesWith(deliveryTimeIds, values.deliveryTime).map((time) => (
              <option key={time} value={time}>
                {deliveryTimeLabel(time)}
              </option>
            ))}
          </select>,
        )}
      </div>
      <DeliveryKindField form={form} kindChange={kindChange} />
      <WarrantyField form={form} />
      {field('image', 'Image URL', <input type="url" className="input w-full" placeholder="https://..." required {...bind('image')} />)}
    </>
  );
}
