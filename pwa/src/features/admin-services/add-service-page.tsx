import { useState, type FormEvent } from 'react';
import { NoAccess } from '../../components/no-access.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { categoryLabel, serviceCategoryIds } from '../../lib/catalog.ts';
import { uploadImage } from '../../lib/image-upload.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import { PaymentAndFeaturesSection, PricingSection, Required, ServiceImageField, useImageChoice, type ServiceForm } from './add-service-sections.tsx';
import { createService } from './service-api.ts';
import { emptyAddFormValues, toServiceBody, validateAddForm, type ServiceField } from './service-form.ts';
import { useServiceForm } from './use-service-form.tsx';
import { DetailsFields } from './details-fields.tsx';

const fieldOrder: ServiceField[] = ['title', 'description', 'category', 'price', 'deliveryTime', 'warrantyDays', 'deliveryKind', 'lowStockThreshold'];

/** Add New Service (/dashboard/add-services): admins only. */
export function AddServicePage() {
  const { can } = useAuthorization();
  if (!can('services:manage'))
    return <NoAccess screen="Add New Service" message="You do not have permission to access this data. Services are added by admins." />;
  return <AddServiceForm />;
}

function BasicInfoSection({ form, image }: { form: ServiceForm; image: ReturnType<typeof useImageChoice> }) {
  const { values, set, fieldId, bind, field } = form;
  return (
    <section aria-labelledby={fieldId('basic')} className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <h2 id={fieldId('basic')} className="card-title">
          Basic Information
        </h2>
        {field(
          'title',
          <>
            Service Title <Required />
          </>,
          <input className="input w-full" required {...bind('title')} />,
        )}
        {field(
          'description',
          <>
            Description <Required />
          </>,
          <textarea className="textarea w-full" rows={4} required {...bind('description')} />,
        )}
        <ServiceImageField id={fieldId('image')} choice={image} />
        {field(
          'category',
          <>
            Category <Required />
          </>,
          <select className="select w-full" required {...bind('category')}>
            {serviceCategoryIds.map((category) => (
              <option key={category} value={category}>
                {categoryLabel(category)}
              </option>
            ))}
          </select>,
        )}
        <label className="label cursor-pointer gap-3 text-base-content">
          <input type="checkbox" className="checkbox checkbox-primary" checked={values.popular} onChange={(e) => set('popular', e.target.checked)} />
          Popular service
        </label>
        <DetailsFields values={values} set={set} />
      </div>
    </section>
  );
}

/** Saves the new service: its picture uploaded first (a failed upload saves it without one), under one id per service. */
function useSaveNewService(form: ServiceForm, image: File | null, serviceId: string, onSaved: () => void) {
  const toast = useToast();
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (form.showProblems(validateAddForm(form.values))) return;
    if (!navigator.onLine) {
      setSaveError('You are offline. Connect to the internet to save the service.');
      return;
    }
    setSaving(true);
    setSaveError(null);
    let imageUrl = '';
    if (image) {
      try {
        imageUrl = (await uploadImage(image, 'service')).url;
      } catch (error) {
        // Spec: an upload failure is logged and the service is saved without an image.
        console.error('Service image upload failed; saving the service without an image', error);
      }
    }
    try {
      await createService(serviceId, { ...toServiceBody(form.values), image: imageUrl });
      toast.success('Service added successfully!', 2000);
      onSaved();
    } catch (error) {
      console.error('Failed to save service', error);
      setSaveError(error instanceof Error && error.message ? error.message : 'Failed to save service');
    } finally {
      setSaving(false);
    }
  };
  return { saveError, setSaveError, saving, submit };
}

export function AddServiceForm() {
  usePageTitle('Add New Service');
  const goBack = useGoBack('/dashboard/admin-services');
  const form = useServiceForm(emptyAddFormValues, fieldOrder);
  const image = useImageChoice();
  // One id per service being added: a submit repeated after a lost answer never creates a second service.
  const [serviceId, setServiceId] = useState(() => crypto.randomUUID());
  const reset = () => {
    form.reset(emptyAddFormValues());
    image.clear();
    save.setSaveError(null);
    setServiceId(crypto.randomUUID());
  };
  const save = useSaveNewService(form, image.image, serviceId, reset);
  const { saveError, saving } = save;

  const cancel = () => {
    reset();
    goBack();
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="text-2xl font-bold">Add New Service</h1>
        <p className="text-base-content/80">Fill in the details customers will see on the storefront.</p>
      </header>

      {saveError && (
        <p role="alert" className="alert alert-error">
          Error: {saveError}
        </p>
      )}

      <form ref={form.formRef} noValidate onSubmit={(event) => void save.submit(event)} className="space-y-6" aria-busy={saving}>
        <BasicInfoSection form={form} image={image} />
        <PricingSection form={form} />
        <PaymentAndFeaturesSection form={form} />

        <div className="flex justify-end gap-2">
          <button type="button" className="btn" onClick={cancel} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {saving ? 'Saving...' : 'Save Service'}
          </button>
        </div>
      </form>
    </div>
  );
}
