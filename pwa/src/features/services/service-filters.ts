import type { Service } from '../../../../edge-api/src/contract.ts';
import { capitalize } from '../../lib/format.ts';
import { ALL_CATEGORIES } from '../../lib/service-search.ts';

/** Category names as the tabs show them: first letter capitalised (spec). */
export const categoryLabel = capitalize;

/** The tabs: All Services first, then each category found, alphabetically, with counts. */
export function categoryTabs(services: Pick<Service, 'category'>[]): { key: string; label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const service of services) counts.set(service.category, (counts.get(service.category) ?? 0) + 1);
  return [
    { key: ALL_CATEGORIES, label: 'All Services', count: services.length },
    ...[...counts].sort(([a], [b]) => a.localeCompare(b)).map(([category, count]) => ({ key: category, label: categoryLabel(category), count })),
  ];
}
