import { useId } from 'react';
import { DETAILS_HINT_MAX } from '../../../../edge-api/src/contract/service-requests.ts';
import type { ServiceFormValues } from './service-form.ts';

/**
 * Whether an order of this service needs details from the customer (an editable document's data, say),
 * and the hint shown under the note they must then write.
 */
export function DetailsFields({
  values,
  set,
}: {
  values: ServiceFormValues;
  set: <K extends keyof ServiceFormValues>(key: K, value: ServiceFormValues[K]) => void;
}) {
  const id = useId();
  return (
    <div className="space-y-2">
      <label className="label cursor-pointer gap-3 text-base-content">
        <input
          type="checkbox"
          className="checkbox checkbox-primary"
          checked={values.needsDetails ?? false}
          onChange={(e) => set('needsDetails', e.target.checked)}
        />
        Orders need details from the customer
      </label>
      {values.needsDetails && (
        <div>
          <label htmlFor={`${id}-hint`} className="mb-1 block text-sm font-medium">
            What the customer should write
          </label>
          <input
            id={`${id}-hint`}
            className="input w-full"
            maxLength={DETAILS_HINT_MAX}
            placeholder="e.g. Full name, address and the month wanted"
            value={values.detailsHint ?? ''}
            onChange={(e) => set('detailsHint', e.target.value)}
          />
        </div>
      )}
    </div>
  );
}
