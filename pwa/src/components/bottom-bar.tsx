import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A bar fixed to the bottom of a phone's screen (below 1024px) with a page's main action in reach, however
 * far down the page the person is. While it shows, its height is published as --bottom-bar-height, so
 * toasts sit above it. Pages that show one leave room for it at their end (pb-28 below lg).
 */
export function BottomBar({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--bottom-bar-height', `${bar.offsetHeight}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--bottom-bar-height');
    };
  }, []);
  return (
    <aside
      ref={ref}
      aria-label={label}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-base-300 bg-base-100/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgb(0_0_0/0.08)] backdrop-blur lg:hidden"
    >
      {children}
    </aside>
  );
}
