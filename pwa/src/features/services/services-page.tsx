import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SearchIcon } from '../../components/icons.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useSettings } from '../../db/device-hooks.ts';
import { categoryKey } from '../../lib/catalog.ts';
import { useDisplayCurrency } from '../../lib/display-currency.ts';
import { ALL_CATEGORIES, filterServices } from '../../lib/service-search.ts';
import { ServiceCard } from './service-card.tsx';
import { categoryTabs } from './service-filters.ts';
import { retryServices, usePublicServices } from './use-public-services.ts';

const categorySearch = (key: string) => (key === ALL_CATEGORIES ? '' : `?${new URLSearchParams({ category: key })}`);

/**
 * One link per category with its count. The tabs are links, so a tap on the server-rendered page before the
 * app has taken it over opens the same page, rendered with that category (decision 053).
 */
function CategoryTabs({ tabs, active }: { tabs: ReturnType<typeof categoryTabs>; active: string }) {
  return (
    <div role="group" aria-label="Categories" className="flex flex-wrap gap-2">
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          to={{ search: categorySearch(tab.key) }}
          replace
          aria-current={tab.key === active ? 'true' : undefined}
          className={`btn btn-sm btn-primary ${tab.key === active ? '' : 'btn-outline'}`}
        >
          {tab.label}{' '}
          <span className={`rounded-full px-2 text-xs font-bold ${tab.key === active ? 'bg-primary-content text-primary' : 'bg-base-200 text-base-content'}`}>
            {tab.count}
          </span>
        </Link>
      ))}
    </div>
  );
}

export function ServicesPage() {
  usePageTitle('Services');
  const services = usePublicServices();
  const [searchOpen, setSearchOpen] = useState(false);
  const [query, setQuery] = useState('');
  // The tab is kept in the address (/services?category=wise): the menu's Services › Wise opens it, and back
  // returns to it. The tabs are links, so a tap on the server-rendered page before the app has taken it
  // over opens the same page, rendered with that category (decision 053), instead of being lost.
  const [params] = useSearchParams();
  const category = categoryKey(params.get('category') ?? '') || ALL_CATEGORIES;
  const searchInput = useRef<HTMLInputElement>(null);
  const searchId = useId();

  useEffect(() => {
    if (searchOpen) searchInput.current?.focus();
  }, [searchOpen]);

  const all = useMemo(() => (services.state === 'ready' ? services.value : []), [services]);
  const tabs = useMemo(() => categoryTabs(all), [all]);
  const activeCategory = tabs.some((tab) => tab.key === category) ? category : ALL_CATEGORIES;
  const shown = useMemo(() => filterServices(all, query, activeCategory), [all, activeCategory, query]);
  const searching = query.trim() !== '';
  const { displayCurrencies } = useSettings();
  const currency = useDisplayCurrency(displayCurrencies);

  const toggleSearch = () => {
    if (searchOpen) setQuery('');
    setSearchOpen(!searchOpen);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <header className="mb-8 text-center">
        <h1 className="text-4xl font-extrabold md:text-5xl">Explore Premium Services</h1>
        <p className="mx-auto mt-3 max-w-2xl text-lg">Accounts, documents, servers and proxies, delivered fast and ready to use.</p>
      </header>

      {services.state === 'loading' && <LoadingState text="Loading Services..." fill />}

      {services.state === 'error' && (
        <ErrorState title="Error" message="Failed to fetch services. Please try again later." onRetry={() => void retryServices().catch(() => undefined)} />
      )}

      {services.state === 'ready' && (
        <>
          <div className="mb-6 flex flex-col gap-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <CategoryTabs tabs={tabs} active={activeCategory} />
              <button type="button" className="btn btn-outline btn-primary btn-sm" aria-expanded={searchOpen} aria-controls={searchId} onClick={toggleSearch}>
                <SearchIcon />
                {searchOpen ? 'Close Search' : 'Search'}
              </button>
            </div>
            <div id={searchId} hidden={!searchOpen}>
              <label className="input input-bordered flex w-full items-center gap-2 md:max-w-md">
                <span className="sr-only">Search services</span>
                <input
                  ref={searchInput}
                  type="search"
                  className="grow"
                  placeholder="Search services..."
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                />
              </label>
            </div>
            <p aria-live="polite" className="text-sm font-medium">
              {searching ? `${shown.length} ${shown.length === 1 ? 'result' : 'results'} for "${query.trim()}"` : ''}
            </p>
          </div>

          {shown.length === 0 ? (
            <EmptyState title="No Services Found" text={all.length === 0 ? 'No services available at the moment.' : 'Try adjusting your search or filters.'} />
          ) : (
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {shown.map((service) => (
                <li key={service.id}>
                  <ServiceCard service={service} currency={currency} reservePriceLine={(displayCurrencies ?? []).length > 0} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
