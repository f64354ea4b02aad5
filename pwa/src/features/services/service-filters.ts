import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { categoryKey, categoryLabel } from '../../lib/catalog.ts';
import { ALL_CATEGORIES } from '../../lib/service-search.ts';

/** The tabs: All Services first, then each category found (one tab whatever its spelling), by name, with counts. */
export function categoryTabs(services: Pick<Service, 'category'>[]): { key: string; label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const service of services) {
    const key = categoryKey(service.category);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const tabs = [...counts].map(([key, count]) => ({ key, label: categoryLabel(key), count }));
  return [{ key: ALL_CATEGORIES, label: 'All Services', count: services.length }, ...tabs.sort((a, b) => a.label.localeCompare(b.label))];
}
