import { useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import type { ServiceField, ServiceFormErrors, ServiceFormValues } from './service-form.ts';

export const FIELD_LABEL_CLASS = 'label mb-1 block text-sm font-medium text-base-content';

/**
 * The state both service forms share: the values, the problems found on submit (each shown under its
 * field and cleared as soon as the field is edited), and the ids that tie a field to its message.
 */
export function useServiceForm(initial: () => ServiceFormValues, fieldOrder: readonly ServiceField[]) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<ServiceFormValues>(initial);
  const [errors, setErrors] = useState<ServiceFormErrors>({});

  const set = <K extends keyof ServiceFormValues>(key: K, value: ServiceFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  /** Shows the problems found under their fields and moves focus to the first; true when there were any. */
  const showProblems = (found: ServiceFormErrors): boolean => {
    setErrors(found);
    const firstInvalid = fieldOrder.find((field) => found[field]);
    if (!firstInvalid) return false;
    formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
    return true;
  };

  const reset = (next: ServiceFormValues) => {
    setValues(next);
    setErrors({});
  };

  const fieldId = (field: string) => `${id}-${field}`;
  /** What a text field, text area or select of `field` needs: its id and name, value, edits and problem. */
  const bind = (field: ServiceField) => ({
    id: fieldId(field),
    name: field,
    value: values[field] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => set(field, event.target.value),
    ...(errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(field)}-error` } : {}),
  });
  const errorOf = (field: ServiceField) =>
    errors[field] ? (
      <p id={`${fieldId(field)}-error`} className="mt-1 text-sm text-error">
        {errors[field]}
      </p>
    ) : null;

  /** One labelled field: the label tied to `control` (which spreads `bind(name)`), and its problem under it. */
  const field = (name: ServiceField, label: ReactNode, control: ReactNode) => (
    <div>
      <label htmlFor={fieldId(name)} className={FIELD_LABEL_CLASS}>
        {label}
      </label>
      {control}
      {errorOf(name)}
    </div>
  );

  return { formRef, values, set, showProblems, reset, fieldId, bind, field };
}
