import type { AnchorHTMLAttributes, ReactNode } from 'react';

/** The hint every new-tab link ends with, read by screen readers only. */
export const NEW_TAB_HINT = ' (opens in a new tab)';

/**
 * An anchor that opens in a new tab and says so: its accessible name is its visible
 * text (or aria-label) followed by " (opens in a new tab)", in the project's sr-only span.
 */
export function ExternalLink({
  children,
  'aria-label': label,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'> & { children: ReactNode }) {
  return (
    // A label replaces the text, so it carries the hint too.
    <a {...props} aria-label={label === undefined ? undefined : label + NEW_TAB_HINT} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only">{NEW_TAB_HINT}</span>
    </a>
  );
}
