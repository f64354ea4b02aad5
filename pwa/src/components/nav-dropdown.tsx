import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { ChevronDownIcon } from './icons.tsx';
import { useDismiss } from './use-dismiss.ts';

/**
 * A navigation disclosure (button + list of links), the pattern WAI-ARIA recommends for site menus:
 * closes on outside click or focus, Escape, a link chosen, or the window reaching the desktop width.
 */
export function NavDropdown({
  label,
  children,
  align = 'start',
}: {
  label: string;
  /** Render-prop so links can close the menu when chosen. */
  children: (close: () => void) => ReactNode;
  align?: 'start' | 'end';
}) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const close = () => setOpen(false);
  useDismiss(open, close, [containerRef], buttonRef);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost gap-1 font-medium"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        <ChevronDownIcon className={`h-4 w-4 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      <ul
        id={listId}
        hidden={!open}
        className={`menu absolute top-full z-50 mt-2 w-56 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300 ${align === 'end' ? 'right-0' : 'left-0'}`}
      >
        {children(close)}
      </ul>
    </div>
  );
}
