import type { Ref } from 'react';
import { CloseIcon, MenuIcon } from './icons.tsx';

/** The Menu button below the 1024px breakpoint that opens and closes a layout's navigation panel. */
export function MenuToggle({ open, onToggle, controls, ref }: { open: boolean; onToggle: () => void; controls: string; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      ref={ref}
      type="button"
      className="btn btn-ghost btn-square lg:hidden"
      aria-label="Menu"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      {open ? <CloseIcon /> : <MenuIcon />}
    </button>
  );
}
