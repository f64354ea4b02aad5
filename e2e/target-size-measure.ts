import type { Page } from 'playwright-core';

/** WCAG 2.2 AA 2.5.8: every target at least this wide and high (CSS px). */
export const MIN_TARGET = 24;
/** The primary actions of a screen: at least this wide and high (WCAG 2.5.5, the platforms' touch guides). */
export const MIN_PRIMARY = 44;

/**
 * The primary actions, by accessible name: ordering and paying, sending a payment proof, cancelling an
 * order, delivering it, marking it paid, showing and copying a credential, the menu and the bell.
 */
export const PRIMARY_ACTION =
  /^(Place Order Now|Confirm Order|Order Now|Pay\b|Send Proof|Submit Proof|Upload Proof|Cancel Order|Cancel order|Approve & Deliver|Deliver\b|Add credentials to|Mark (as )?Paid|Show\b|Hide\b|Copy\b|Menu$|Close menu$|Notifications$)/;

export interface Measured {
  measured: number;
  offenders: string[];
}

/**
 * Every visible control of the page (links, buttons, fields, anything focusable by Tab) with its box:
 * one under 24x24 px that is not a link inside a sentence, a primary action under 44x44 px, and two
 * controls whose boxes overlap (neither inside the other) are offenders, each named with its size.
 */
export async function measureTargets(page: Page): Promise<Measured> {
  // A dialog or drawer still sliding in is measured once it is still.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  return page.evaluate(
    ({ min, primary, pattern }) => {
      const selector =
        'a[href], button, select, input:not([type="hidden"]), textarea, summary, [role="button"], [role="link"], [role="checkbox"], [role="switch"], [role="tab"], [role="menuitem"], [tabindex]:not([tabindex="-1"])';
      const primaryName = new RegExp(pattern);
      const width = document.documentElement.clientWidth;
      const nameOf = (element: HTMLElement) =>
        (
          element.getAttribute('aria-label') ??
          (element.textContent?.trim() || (element as HTMLInputElement).value || element.getAttribute('title') || element.getAttribute('placeholder') || '')
        )
          .replace(/\s+/g, ' ')
          .slice(0, 60);
      /** A link in running text: its line box, not the link, decides its height (the rule's "inline" exception). */
      const inSentence = (element: HTMLElement) => {
        if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
        let block = element.parentElement;
        while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
        const own = element.textContent?.trim().length ?? 0;
        return !!block && (block.textContent?.trim().length ?? 0) > own + 10;
      };
      // With a modal dialog open the page behind it is inert: only the dialog's box is measured.
      const scope: ParentNode = document.querySelector('dialog:modal .modal-box') ?? document;
      const controls = [...scope.querySelectorAll<HTMLElement>(selector)]
        .filter((element) => element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && !element.closest('[inert], [aria-hidden="true"]'))
        .map((element) => ({ element, box: element.getBoundingClientRect() }))
        // sr-only controls (1 px, drawn by their label) and what lies beyond the screen's edge (a closed drawer).
        .filter(({ box }) => box.width > 2 && box.height > 2 && box.right > 0 && box.left < width)
        // What lies under an open drawer, panel or sticky bar is no target while it is covered there (two
        // controls that overlap a little still both show their centres, and the overlap is an offender).
        .filter(({ element, box }) => {
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          if (y < 0 || y > window.innerHeight || x < 0 || x > width) return true;
          const top = document.elementFromPoint(x, y);
          return !top || element.contains(top) || top.contains(element);
        });
      /** The nearest ancestor taken out of the page's flow (fixed, absolute or sticky): the layer a control is drawn in. */
      const layerOf = (element: HTMLElement) => {
        for (let node = element.parentElement; node; node = node.parentElement) {
          if (['fixed', 'absolute', 'sticky'].includes(getComputedStyle(node).position)) return node;
        }
        return null;
      };
      const offenders: string[] = [];
      const describe = (element: HTMLElement, box: DOMRect) =>
        `${element.tagName.toLowerCase()} "${nameOf(element)}" ${Math.round(box.width * 10) / 10}x${Math.round(box.height * 10) / 10}`;
      for (const { element, box } of controls) {
        const name = nameOf(element);
        if (primaryName.test(name) && (box.width < primary - 0.5 || box.height < primary - 0.5))
          offenders.push(`${describe(element, box)}: a primary action under ${primary}x${primary}`);
        else if ((box.width < min - 0.5 || box.height < min - 0.5) && !inSentence(element)) offenders.push(`${describe(element, box)}: under ${min}x${min}`);
      }
      for (let i = 0; i < controls.length; i++) {
        for (let j = i + 1; j < controls.length; j++) {
          const a = controls[i]!;
          const b = controls[j]!;
          if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
          // A panel, drawer or bar floating over the page covers what lies under it (whose centre, checked
          // above, stays in reach): controls of two different layers do not overlap as targets.
          if (layerOf(a.element) !== layerOf(b.element)) continue;
          const overlapX = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const overlapY = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (overlapX > 1 && overlapY > 1) offenders.push(`${describe(a.element, a.box)} overlaps ${describe(b.element, b.box)}`);
        }
      }
      return { measured: controls.length, offenders };
    },
    { min: MIN_TARGET, primary: MIN_PRIMARY, pattern: PRIMARY_ACTION.source },
  );
}
