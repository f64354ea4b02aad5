import { useEffect, useState, type FormEvent } from 'react';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { NoAccess } from '../../components/no-access.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useToast } from '../../components/toast.tsx';
import { useAuthorization } from '../../lib/authorization.tsx';
import { categoryLabel, deliveryTimeIds, deliveryTimeLabel, paymentMethodIds, paymentMethodName, serviceCategoryIds } from '../../lib/catalog.ts';
import { isImageFile, uploadImage } from '../../lib/image-upload.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import { warrantyInputProps, WARRANTY_HINT } from './warranty-field.tsx';
import { ListField } from './list-field.tsx';
import { createService } from './service-api.ts';
import { emptyAddFormValues, toServiceBody, validateAddForm, type ServiceField } from './service-form.ts';
import { FIELD_LABEL_CLASS, useServiceForm } from './use-service-form.tsx';
import { DetailsFields } from './details-fields.tsx';
import { describedBy } from '../../lib/described-by.ts';

const MAX_IMAGE_MB = uploadLimitMegabytes.service;

/** Checks a chosen image: any image type, at most 32 MB. Answers the problem, or null. */
export function imageProblem(file: File): string | null {
  if (!isImageFile(file)) return 'Please select an image file';
  if (file.size > MAX_IMAGE_MB * 1024 * 1024) return `Please select an image smaller than ${MAX_IMAGE_MB}MB`;
  return null;
}

const fieldOrder: ServiceField[] = ['title', 'description', 'category', 'price', 'deliveryTime', 'warrantyDays'];

/** Add New Service (/dashboard/add-services): admins only. */
export function AddServicePage() {
  const { can } = useAuthorization();
  if (!can('services:manage')) return <NoAccess screen="Add New Service" message="You do not have permission to access this data. Services are added by admins." />;
  return <AddServiceForm />;
}

/** The chosen picture before it is uploaded, with a way to drop it. */
function ImagePreview({ file, onRemove }: { file: File; onRemove: () => void }) {
  const url = useObjectUrl(file);
  return (
    <figure className="mt-3 flex items-start gap-3">
      {url && <img src={url} alt="Preview of the service image" className="h-28 w-44 rounded-box border border-base-300 bg-base-200 object-cover" />}
      <figcaption className="flex min-w-0 flex-col gap-2 text-sm">
        <span className="break-all">{file.name}</span>
        <button type="button" className="btn btn-outline btn-error btn-xs self-start" onClick={onRemove}>
          Remove image
        </button>
      </figcaption>
    </figure>
  );
}

/** An object URL for a file while it is shown, revoked afterwards. */
function useObjectUrl(file: File): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

function Required() {
  return (
    <span aria-hidden="true" className="text-error">
      *
    </span>
  );
}

export function AddServiceForm() {
  usePageTitle('Add New Service');
  const toast = useToast();
  const goBack = useGoBack('/dashboard/admin-services');
  const { formRef, values, set, showProblems, reset: resetValues, fieldId, bind, field } = useServiceForm(emptyAddFormValues, fieldOrder);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // One id per service being added: a submit repeated after a lost answer never creates a second service.
  const [serviceId, setServiceId] = useState(() => crypto.randomUUID());
  const [fileInputKey, setFileInputKey] = useState(0);

  const reset = () => {
    resetValues(emptyAddFormValues());
    setImage(null);
    setImageError(null);
    setSaveError(null);
    setServiceId(crypto.randomUUID());
    setFileInputKey((key) => key + 1);
  };

  const chooseImage = (file: File | undefined) => {
    if (!file) {
      setImage(null);
      setImageError(null);
      return;
    }
    const problem = imageProblem(file);
    setImageError(problem);
    setImage(problem ? null : file);
  };

  const removeImage = () => {
    setImage(null);
    setImageError(null);
    // A fresh file input: the same file can be chosen again.
    setFileInputKey((key) => key + 1);
  };

  const togglePaymentMethod = (method: string, on: boolean) =>
    set('paymentMethods', on ? [...values.paymentMethods, method] : values.paymentMethods.filter((m) => m !== method));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (showProblems(validateAddForm(values))) return;
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
      await createService(serviceId, { ...toServiceBody(values), image: imageUrl });
      toast.success('Service added successfully!', 2000);
      reset();
    } catch (error) {
      console.error('Failed to save service', error);
      setSaveError(error instanceof Error && error.message ? error.message : 'Failed to save service');
    } finally {
      setSaving(false);
    }
  };

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

      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="space-y-6" aria-busy={saving}>
        <section aria-labelledby={fieldId('basic')} className="card border border-base-300 bg-base-100 shadow-sm">
          <div className="card-body gap-4">
            <h2 id={fieldId('basic')} className="card-title">
              Basic Information
            </h2>
            {field('title', <>Service Title <Required /></>, <input className="input w-full" required {...bind('title')} />)}
            {field('description', <>Description <Required /></>, <textarea className="textarea w-full" rows={4} required {...bind('description')} />)}
            <div>
              <label htmlFor={fieldId('image')} className={FIELD_LABEL_CLASS}>
                Service Image (optional)
              </label>
              <input
                key={fileInputKey}
                id={fieldId('image')}
                name="image"
                type="file"
                accept="image/*"
                className="file-input w-full"
                aria-describedby={`${fieldId('image')}-hint${imageError ? ` ${fieldId('image')}-error` : ''}`}
                aria-invalid={imageError ? true : undefined}
                onChange={(e) => chooseImage(e.target.files?.[0])}
              />
              <p id={`${fieldId('image')}-hint`} className="mt-1 text-xs text-base-content/80">
                Any image type, max 32MB
              </p>
              {imageError && (
                <p id={`${fieldId('image')}-error`} className="mt-1 text-sm text-error">
                  {imageError}
                </p>
              )}
              {image && <ImagePreview file={image} onRemove={() => removeImage()} />}
            </div>
            {field(
              'category',
              <>Category <Required /></>,
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

        <section aria-labelledby={fieldId('pricing')} className="card border border-base-300 bg-base-100 shadow-sm">
          <div className="card-body gap-4">
            <h2 id={fieldId('pricing')} className="card-title">
              Pricing &amp; Delivery
            </h2>
            <div className="grid gap-4 sm:grid-cols-2">
              {field('price', <>Price <Required /></>, <input type="text" className="input w-full" placeholder="e.g. 25" required {...bind('price')} />)}
              {field(
                'deliveryTime',
                <>Delivery Time <Required /></>,
                <select className="select w-full" required {...bind('deliveryTime')}>
                  <option value="">Select delivery time</option>
                  {deliveryTimeIds.map((time) => (
                    <option key={time} value={time}>
                      {deliveryTimeLabel(time)}
                    </option>
                  ))}
                </select>,
              )}
            </div>
            {field(
              'warrantyDays',
              'Warranty (days)',
              <>
                <input
              {...bind('warrantyDays')}
              {...warrantyInputProps(values.warrantyDays, (days) => set('warrantyDays', days))}
              aria-describedby={describedBy(bind('warrantyDays')['aria-describedby'], `${fieldId('warrantyDays')}-hint`)}
            />
                <p id={`${fieldId('warrantyDays')}-hint`} className="mt-1 text-xs text-base-content/70">
                  {WARRANTY_HINT}
                </p>
              </>,
            )}
          </div>
        </section>

        <section className="card border border-base-300 bg-base-100 shadow-sm">
          <div className="card-body gap-4">
            <fieldset className="fieldset">
              <legend className="fieldset-legend text-lg">Payment Methods</legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {paymentMethodIds.map((method) => (
                  <label key={method} className="label cursor-pointer gap-2 text-base-content">
                    <input
                      type="checkbox"
                      className="checkbox checkbox-sm"
                      checked={values.paymentMethods.includes(method)}
                      onChange={(e) => togglePaymentMethod(method, e.target.checked)}
                    />
                    {paymentMethodName(method)}
                  </label>
                ))}
              </div>
            </fieldset>
            <ListField
              legend="Features"
              legendClassName="text-lg"
              itemLabel="Feature"
              addLabel="Add Feature"
              items={values.features}
              onChange={(features) => set('features', features)}
              renderItem={({ value, label, onChange }) => (
                <input className="input w-full" aria-label={label} placeholder="Enter a feature" value={value} onChange={(e) => onChange(e.target.value)} />
              )}
            />
          </div>
        </section>

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
