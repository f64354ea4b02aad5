import type { Service } from '../../../edge-api/src/contract/services.ts';
import { categoryKey } from './catalog.ts';

/** The category filter's value for "every category". */
export const ALL_CATEGORIES = 'all';

/** Spec (storefront listing and dashboard): search on title or description, case-insensitive. */
export function matchesServiceSearch(service: Pick<Service, 'title' | 'description'>, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return service.title.toLowerCase().includes(needle) || service.description.toLowerCase().includes(needle);
}

/** The services of one category (its key, or ALL_CATEGORIES) that match the search; a category's spellings are one. */
export function filterServices<T extends Pick<Service, 'title' | 'description' | 'category'>>(services: readonly T[], query: string, category: string): T[] {
  return services.filter((service) => (category === ALL_CATEGORIES || categoryKey(service.category) === category) && matchesServiceSearch(service, query));
}
