import { useId, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import type { SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import type { FieldProblems } from '../../lib/form-problems.ts';

/** What every section of the settings form shares: ids, error wiring and the look of labels and cards. */
export interface FieldKit {
  fieldId: (path: string) => string;
  clearError: (path: string) => void;
  errorProps: (path: string) => Record<string, unknown>;
  errorText: (path: string, label: string) => ReactNode;
  labelClass: string;
  cardClass: string;
}

/** The props of a section: the settings being edited and the kit. */
export interface SectionProps {
  settings: SiteSettings;
  setSettings: Dispatch<SetStateAction<SiteSettings>>;
  kit: FieldKit;
}

export function useFieldKit(errors: FieldProblems, setErrors: Dispatch<SetStateAction<FieldProblems>>): FieldKit {
  const id = useId();
  const fieldId = (path: string) => `${id}-${path.replaceAll('.', '-')}`;
  return {
    fieldId,
    clearError: (path) => {
      if (path in errors) setErrors(({ [path]: _gone, ...rest }) => rest);
    },
    errorProps: (path) => (errors[path] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(path)}-error` } : {}),
    errorText: (path, label) =>
      errors[path] ? (
        <p id={`${fieldId(path)}-error`} className="mt-1 text-sm text-error">
          {label} {errors[path]}
        </p>
      ) : null,
    labelClass: 'label mb-1 block text-sm font-medium text-base-content',
    cardClass: 'card border border-base-300 bg-base-100 shadow-sm',
  };
}
