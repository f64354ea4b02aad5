import type { ReactNode } from 'react';

/**
 * A table that keeps its columns where they fit and turns into one card per row where they do not, so a
 * row's actions are always in view without a sideways scroll. It follows the width of its container (a
 * container query), not the window's: the dashboard's sidebar takes room on a laptop, none on a tablet.
 *
 * The explicit roles keep the table's meaning for screen readers when the cards change its display.
 * Below 56rem of container (a phone, a tablet, a laptop beside the sidebar up to about 1230px) the rows
 * are cards.
 * Tailwind reads the class names from this file, so they are written out whole.
 */
export const stacked = {
  frame: '@container',
  table: 'rounded-box bg-base-100 shadow-sm @max-4xl:block @max-4xl:bg-transparent @max-4xl:shadow-none',
  head: 'text-base-content @max-4xl:sr-only',
  body: '@max-4xl:block @max-4xl:space-y-3',
  /** A card's grid; each table sets its columns (grid-cols-*), which a table row ignores. */
  row: '@max-4xl:grid @max-4xl:gap-x-4 @max-4xl:gap-y-3 @max-4xl:rounded-box @max-4xl:border @max-4xl:border-base-300 @max-4xl:bg-base-100 @max-4xl:p-4 @max-4xl:shadow-sm',
  cell: '@max-4xl:block @max-4xl:min-w-0 @max-4xl:border-0 @max-4xl:p-0',
} as const;

/** A cell's column name, shown only when the rows are cards (the column header says it otherwise). */
export function CellLabel({ children }: { children: ReactNode }) {
  return (
    <span aria-hidden="true" className="mb-1 block text-xs font-semibold text-base-content/70 @4xl:hidden">
      {children}
    </span>
  );
}
