import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** The spec's mobile menu breakpoint (section 9). */
export const WIDE_SCREEN_QUERY = '(min-width: 1024px)';

/**
 * Closes an open menu or panel when the person clicks or moves focus outside `containers`, presses
 * Escape (focus then returns to `trigger`), or the window reaches 1024px or wider.
 */
export function useDismiss(open: boolean, close: () => void, containers: RefObject<HTMLElement | null>[], trigger?: RefObject<HTMLElement | null>) {
  // The latest values without re-subscribing on every render.
  const latest = useRef({ close, containers, trigger });
  useLayoutEffect(() => {
    latest.current = { close, containers, trigger };
  });

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) => target instanceof Node && latest.current.containers.some((ref) => ref.current?.contains(target));
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) latest.current.close();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!inside(event.target)) latest.current.close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      latest.current.close();
      latest.current.trigger?.current?.focus();
    };
    const wide = window.matchMedia?.(WIDE_SCREEN_QUERY);
    const onWide = (event: MediaQueryListEvent) => {
      if (event.matches) latest.current.close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    wide?.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
      wide?.removeEventListener('change', onWide);
    };
  }, [open]);
}
