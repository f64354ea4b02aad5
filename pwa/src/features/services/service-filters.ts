import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { categoryKey, categoryLabel } from '../../lib/catalog.ts';
import { ALL_CATEGORIES } from '../../lib/service-search.ts';

/**
 * By name, ignoring case (then by case). Not localeCompare: its first call sets up the browser's collator,
 * a long task on a phone while /services is taken over (decision 070); the labels are capitalised words.
 */
const byLabel = (a: { label: string }, b: { label: string }) => {
  const [x, y] = [a.label.toLowerCase(), b.label.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
};

/** The tabs: All Services first, then each category found (one tab whatever its spelling), by name, with counts. */
export function categoryTabs(services: Pick<Service, 'category'>[]): { key: string; label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const service of services) {
    const key = categoryKey(service.category);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const tabs = [...counts].map(([key, count]) => ({ key, label: categoryLabel(key), count }));
  return [{ key: ALL_CATEGORIES, label: 'All Services', count: services.length }, ...tabs.sort(byLabel)];
}
