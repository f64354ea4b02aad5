import type { ChangeEvent } from 'react';
import { WARRANTY_DAYS_MAX } from '../../../../edge-api/src/contract/service-requests.ts';

/**
 * The service's warranty in days (decision 063): within it after delivery, a customer can report a
 * problem and staff replace the credentials; 0 gives no warranty. Spread `bind('warrantyDays')` first.
 */
export function warrantyInputProps(value: number | undefined, set: (days: number) => void) {
  return {
    type: 'number',
    inputMode: 'numeric' as const,
    min: 0,
    max: WARRANTY_DAYS_MAX,
    step: 1,
    className: 'input w-full',
    value: String(value ?? 0),
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.target.value === '' ? 0 : Number(event.target.value)),
  };
}

export const WARRANTY_HINT = 'Days after delivery in which a customer can report a problem and get a replacement; 0 for no warranty.';
