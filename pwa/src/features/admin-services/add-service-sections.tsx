import { useEffect, useState } from 'react';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { deliveryTimeIds, deliveryTimeLabel, paymentMethodIds, paymentMethodName } from '../../lib/catalog.ts';
import { isImageFile } from '../../lib/image-upload.ts';
import { ListField } from './list-field.tsx';
import { FIELD_LABEL_CLASS, type useServiceForm } from './use-service-form.tsx';
import { DeliveryKindField, StockFieldset, WarrantyField } from './service-fields.tsx';

const MAX_IMAGE_MB = uploadLimitMegabytes.service;

/** Checks a chosen image: any image type, at most 32 MB. Answers the problem, or null. */
export function imageProblem(file: File): string | null {
  if (!isImageFile(file)) return 'Please select an image file';
  if (file.size > MAX_IMAGE_MB * 1024 * 1024) return `Please select an image smaller than ${MAX_IMAGE_MB}MB`;
  return null;
}

export type ServiceForm = ReturnType<typeof useServiceForm>;

export function Required() {
  return (
    <span aria-hidden="true" className="text-error">
      *
    </span>
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

/** The picture chosen for the service (checked, not yet uploaded), its problem, and a key that renews the input. */
export function useImageChoice() {
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);
  const choose = (file: File | undefined) => {
    if (!file) {
      setImage(null);
      setImageError(null);
      return;
    }
    const problem = imageProblem(file);
    setImageError(problem);
    setImage(problem ? null : file);
  };
  /** Drops the picture; a fresh file input lets the same file be chosen again. */
  const clear = () => {
    setImage(null);
    setImageError(null);
    setFileInputKey((key) => key + 1);
  };
  return { image, imageError, fileInputKey, choose, clear };
}

export function ServiceImageField({ id, choice }: { id: string; choice: ReturnType<typeof useImageChoice> }) {
  const { image, imageError, fileInputKey, choose, clear } = choice;
  return (
    <div>
      <label htmlFor={id} className={FIELD_LABEL_CLASS}>
        Service Image (optional)
      </label>
      <input
        key={fileInputKey}
        id={id}
        name="image"
        type="file"
        accept="image/*"
        className="file-input w-full"
        aria-describedby={`${id}-hint${imageError ? ` ${id}-error` : ''}`}
        aria-invalid={imageError ? true : undefined}
        onChange={(e) => choose(e.target.files?.[0])}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-base-content/80">
        Any image type, max 32MB
      </p>
      {imageError && (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {imageError}
        </p>
      )}
      {image && <ImagePreview file={image} onRemove={clear} />}
    </div>
  );
}

export function PricingSection({ form }: { form: ServiceForm }) {
  const { fieldId, bind, field } = form;
  return (
    <section aria-labelledby={fieldId('pricing')} className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <h2 id={fieldId('pricing')} className="card-title">
          Pricing &amp; Delivery
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {field(
            'price',
            <>
              Price <Required />
            </>,
            <input type="text" className="input w-full" placeholder="e.g. 25" required {...bind('price')} />,
          )}
          {field(
            'deliveryTime',
            <>
              Delivery Time <Required />
            </>,
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
        <WarrantyField form={form} />
        <DeliveryKindField form={form} />
        <StockFieldset form={form} keepsStock={false} />
      </div>
    </section>
  );
}

export function PaymentAndFeaturesSection({ form }: { form: ServiceForm }) {
  const { values, set } = form;
  const togglePaymentMethod = (method: string, on: boolean) =>
    set('paymentMethods', on ? [...values.paymentMethods, method] : values.paymentMethods.filter((m) => m !== method));
  return (
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
  );
}
