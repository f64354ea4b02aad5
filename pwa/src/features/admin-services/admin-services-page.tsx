import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { CountCard } from '../../components/count-card.tsx';
import { NoAccess } from '../../components/no-access.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { SearchInput } from '../../components/search-input.tsx';
import { useToast } from '../../components/toast.tsx';
import { requestSync } from '../../db/sync-engine.ts';
import { useSyncStatus } from '../../db/sync-status.ts';
import { isRefusal } from '../../lib/app-error.ts';
import { useAuthorization } from '../../lib/authorization.tsx';
import { categoryLabel } from '../../lib/catalog.ts';
import { ALL_CATEGORIES, filterServices } from '../../lib/service-search.ts';
import { AdminServiceCard } from './admin-service-card.tsx';
import { createService, deleteService, isVersionConflict, updateService } from './service-api.ts';
import { distinctCategories, type ServiceBody } from './service-form.ts';
import { ServiceModal } from './service-modal.tsx';
import { ServiceStockDialog } from './service-stock-dialog.tsx';
import { PriceTiersDialog } from './price-tiers-dialog.tsx';
import { useLocalServices } from './use-local-services.ts';

type ModalState = { mode: 'create'; id: string } | { mode: 'edit'; service: Service } | null;

export const CONFLICT_MESSAGE = 'This service was changed by someone else meanwhile. Close this form and open the service again to edit its latest version.';

/** The modal shows the server's reason when it gave one, else the spec's words. */
const reasonOf = (error: unknown, fallback: string) => (isRefusal(error) ? `${fallback}: ${error.message}` : fallback);

/** All Services (/dashboard/admin-services): admins only. */
export function AdminServicesPage() {
  const { can } = useAuthorization();
  if (!can('services:manage'))
    return <NoAccess screen="All Services" message="You do not have permission to access this data. Services are managed by admins." />;
  return <ServiceManagement />;
}

/** ?stock=<service id> opens that service's stock (the low-stock banner and bell lead here, decision 197). */
function useStockParam() {
  const [searchParams, setSearchParams] = useSearchParams();
  const stockOf = searchParams.get('stock');
  const setStockOf = (id: string | null) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('stock', id);
        else next.delete('stock');
        return next;
      },
      { replace: true },
    );
  return [stockOf, setStockOf] as const;
}

/** Refresh, save (create or edit, as the modal says) and delete, with the toasts the spec asks for. */
function useServiceActions(modal: ModalState, setModal: (next: ModalState) => void) {
  const toast = useToast();
  const confirm = useConfirm();
  const [refreshing, setRefreshing] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await requestSync();
    } catch (error) {
      console.error('Failed to fetch services', error);
      toast.error('Failed to fetch services');
    } finally {
      setRefreshing(false);
    }
  };

  const save = async (body: ServiceBody) => {
    if (!modal) return;
    if (modal.mode === 'create') {
      try {
        await createService(modal.id, body);
      } catch (error) {
        console.error('Failed to create service', error);
        toast.error('Failed to create service');
        throw new Error(reasonOf(error, 'Failed to create service'), { cause: error });
      }
      toast.success('Service created successfully');
    } else {
      try {
        await updateService(modal.service.id, modal.service.version, body);
      } catch (error) {
        console.error('Failed to update service', error);
        toast.error('Failed to update service');
        if (isVersionConflict(error)) {
          requestSync().catch(() => undefined);
          throw new Error(CONFLICT_MESSAGE, { cause: error });
        }
        throw new Error(reasonOf(error, 'Failed to update service'), { cause: error });
      }
      toast.success('Service updated successfully');
    }
    setModal(null);
  };

  const remove = async (service: Service) => {
    const confirmed = await confirm({
      title: 'Are you sure?',
      subject: [service.title, `${categoryLabel(service.category)} · $${service.price}`],
      text: "You won't be able to revert this!",
      confirmLabel: 'Yes, delete it!',
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(service.id);
    try {
      await deleteService(service.id);
      toast.success('Service has been deleted.');
    } catch (error) {
      console.error('Failed to delete service', error);
      toast.error('Failed to delete service');
    } finally {
      setDeleting(null);
    }
  };

  return { refreshing, deleting, refresh, save, remove };
}

function ServiceManagement() {
  usePageTitle('All Services');
  const { online } = useSyncStatus();
  const loaded = useLocalServices();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const [modal, setModal] = useState<ModalState>(null);
  const [stockOf, setStockOf] = useStockParam();
  const [pricesOf, setPricesOf] = useState<Service | null>(null);
  const { refreshing, deleting, refresh, save, remove } = useServiceActions(modal, setModal);

  const services = useMemo(() => (loaded.state === 'ready' ? loaded.services : []), [loaded]);
  const categories = useMemo(() => distinctCategories(services), [services]);
  const shown = useMemo(() => filterServices(services, search, category), [services, search, category]);
  const popularCount = services.filter((service) => service.popular).length;

  let body;
  if (loaded.state === 'loading') body = <LoadingState text="Loading services..." />;
  else if (loaded.state === 'error') body = <ErrorState title="Error!" message="Failed to fetch services" onRetry={() => void refresh()} />;
  else if (shown.length === 0) body = <EmptyState title="No services found" />;
  else
    body = (
      <ServiceCards
        shown={shown}
        deleting={deleting}
        online={online}
        onEdit={(chosen) => setModal({ mode: 'edit', service: chosen })}
        onDelete={(chosen) => void remove(chosen)}
        onStock={(chosen) => setStockOf(chosen.id)}
        onPrices={setPricesOf}
      />
    );

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">All Services</h1>
          <p className="text-base-content/80">Create, edit and remove the services customers can order.</p>
        </div>
        <button type="button" className="btn btn-primary" disabled={!online} onClick={() => setModal({ mode: 'create', id: crypto.randomUUID() })}>
          <span aria-hidden="true">+</span> Add Service
        </button>
      </header>
      {!online && <p className="text-sm text-base-content/80">Offline: showing the services saved on this device. Changes need a connection.</p>}

      <section aria-label="Service counts" className="grid grid-cols-2 gap-4 md:max-w-xl">
        <CountCard label="Total Services" value={loaded.state === 'ready' ? services.length : undefined} />
        <CountCard label="Popular Services" value={loaded.state === 'ready' ? popularCount : undefined} />
      </section>

      <ServiceFilters
        search={search}
        onSearch={setSearch}
        category={category}
        onCategory={setCategory}
        categories={categories}
        refreshing={refreshing}
        onRefresh={() => void refresh()}
      />

      <section aria-label="Services" aria-busy={loaded.state === 'loading' || refreshing}>
        {body}
      </section>

      {stockOf && services.some((service) => service.id === stockOf) && (
        <ServiceStockDialog key={stockOf} service={services.find((service) => service.id === stockOf)!} online={online} onClose={() => setStockOf(null)} />
      )}
      {pricesOf && <PriceTiersDialog service={pricesOf} onClose={() => setPricesOf(null)} />}
      {modal && (
        <ServiceModal
          key={modal.mode === 'create' ? modal.id : modal.service.id}
          service={modal.mode === 'edit' ? modal.service : null}
          save={save}
          onClose={() => setModal(null)}
        />
      )}
    </div>
  );
}

interface ServiceCardsProps {
  shown: Service[];
  deleting: string | null;
  online: boolean;
  onEdit: (service: Service) => void;
  onDelete: (service: Service) => void;
  onStock: (service: Service) => void;
  onPrices: (service: Service) => void;
}

function ServiceCards({ shown, deleting, online, onEdit, onDelete, onStock, onPrices }: ServiceCardsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {shown.map((service) => (
        <AdminServiceCard
          key={service.id}
          service={service}
          busy={deleting === service.id}
          canEdit={online}
          onEdit={onEdit}
          onDelete={onDelete}
          onStock={onStock}
          onPrices={onPrices}
        />
      ))}
    </div>
  );
}

interface ServiceFiltersProps {
  search: string;
  onSearch: (search: string) => void;
  category: string;
  onCategory: (category: string) => void;
  categories: string[];
  refreshing: boolean;
  onRefresh: () => void;
}

function ServiceFilters({ search, onSearch, category, onCategory, categories, refreshing, onRefresh }: ServiceFiltersProps) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row" role="search">
      <SearchInput label="Search services" placeholder="Search services..." value={search} onChange={onSearch} />
      <label className="select w-full sm:w-52">
        <span className="sr-only">Filter by category</span>
        <select value={category} onChange={(event) => onCategory(event.target.value)}>
          <option value={ALL_CATEGORIES}>All Categories</option>
          {categories.map((id) => (
            <option key={id} value={id}>
              {categoryLabel(id)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn btn-outline" onClick={onRefresh} disabled={refreshing}>
        {refreshing && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Refresh
      </button>
    </div>
  );
}
