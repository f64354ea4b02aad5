import type { ReactNode } from 'react';
import { removeRow } from './service-form.ts';

export interface ListFieldProps {
  /** The group's name, e.g. 'Features'; rows are named 'Feature 1', 'Feature 2'... */
  legend: string;
  itemLabel: string;
  items: readonly string[];
  onChange: (items: string[]) => void;
  addLabel: string;
  legendClassName?: string;
  /** Draws one row's control; it must carry `aria-label={label}`. */
  renderItem: (props: { value: string; label: string; onChange: (value: string) => void }) => ReactNode;
}

/** A dynamic list of entries: add one, remove any while more than one is left. */
export function ListField({ legend, legendClassName = '', itemLabel, items, onChange, addLabel, renderItem }: ListFieldProps) {
  const update = (index: number, value: string) => onChange(items.map((item, i) => (i === index ? value : item)));
  return (
    <fieldset className="fieldset">
      <legend className={`fieldset-legend ${legendClassName}`}>{legend}</legend>
      <ul className="space-y-2">
        {items.map((value, index) => {
          const label = `${itemLabel} ${index + 1}`;
          return (
            <li key={index} className="flex items-center gap-2">
              {renderItem({ value, label, onChange: (next) => update(index, next) })}
              {items.length > 1 && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm btn-square text-error"
                  aria-label={`Remove ${label}`}
                  onClick={() => onChange(removeRow(items, index))}
                >
                  <span aria-hidden="true">✕</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="btn btn-outline btn-sm mt-2 w-fit" onClick={() => onChange([...items, ''])}>
        <span aria-hidden="true">+</span> {addLabel}
      </button>
    </fieldset>
  );
}
