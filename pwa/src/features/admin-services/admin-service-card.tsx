import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { categoryLabel, deliveryTimeLabel } from '../../lib/catalog.ts';

export interface AdminServiceCardProps {
  service: Service;
  busy: boolean;
  canEdit: boolean;
  onEdit: (service: Service) => void;
  onDelete: (service: Service) => void;
  /** Opens the service's own stock (decision 072); a service that delivers a file keeps none. */
  onStock: (service: Service) => void;
  /** Opens the service's quantity tiers (issue 32 item 3). */
  onPrices: (service: Service) => void;
}

/** Stock, Prices, Edit and Delete of one service. */
function CardActions({ service, busy, canEdit, onEdit, onDelete, onStock, onPrices }: AdminServiceCardProps) {
  return (
    <div className="card-actions mt-auto justify-end pt-2">
      {service.deliveryKind !== 'file' && (
        <button type="button" className="btn btn-outline btn-sm" aria-label={`Stock of ${service.title}`} disabled={busy} onClick={() => onStock(service)}>
          Stock
        </button>
      )}
      <button
        type="button"
        className="btn btn-outline btn-sm"
        aria-label={`Quantity prices of ${service.title}`}
        disabled={busy || !canEdit}
        onClick={() => onPrices(service)}
      >
        Prices
      </button>
      <button type="button" className="btn btn-outline btn-sm" aria-label={`Edit ${service.title}`} disabled={busy || !canEdit} onClick={() => onEdit(service)}>
        Edit
      </button>
      <button
        type="button"
        className="btn btn-error btn-sm"
        aria-label={`Delete ${service.title}`}
        disabled={busy || !canEdit}
        onClick={() => onDelete(service)}
      >
        Delete
      </button>
    </div>
  );
}

/** One service in the dashboard grid: what customers see, at a glance, with Edit and Delete. */
export function AdminServiceCard({ service, busy, canEdit, onEdit, onDelete, onStock, onPrices }: AdminServiceCardProps) {
  const extraFeatures = service.features.length - 2;
  return (
    <article className="card overflow-hidden border border-base-300 bg-base-100 shadow-sm" aria-busy={busy}>
      <figure className="aspect-video bg-base-200">
        {service.image ? (
          <img src={service.image} alt={service.title} loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-base-content/70" role="img" aria-label={`${service.title}: no image`}>
            <svg viewBox="0 0 24 24" className="h-10 w-10" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
              <rect x="3" y="4" width="18" height="16" rx="2" />
              <path d="M3 16l5-5 4 4 3-3 6 6" />
            </svg>
          </div>
        )}
      </figure>
      <div className="card-body gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="card-title text-lg">{service.title}</h2>
          {service.popular && <span className="badge badge-warning shrink-0">Popular</span>}
        </div>
        <p className="text-xs font-semibold tracking-wide text-primary uppercase">{categoryLabel(service.category)}</p>
        <p className="line-clamp-2 text-sm text-base-content/80">{service.description}</p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <div className="flex gap-1">
            <dt className="sr-only">Price</dt>
            <dd className="text-lg font-bold">${service.price}</dd>
          </div>
          <div className="flex items-center gap-1">
            <dt className="text-base-content/70">Delivery:</dt>
            <dd>{deliveryTimeLabel(service.deliveryTime)}</dd>
          </div>
        </dl>
        {service.features.length > 0 && (
          <ul className="space-y-1 text-sm">
            {service.features.slice(0, 2).map((feature, index) => (
              <li key={index} className="flex items-start gap-2">
                <span aria-hidden="true" className="text-success">
                  ✓
                </span>
                {feature}
              </li>
            ))}
            {extraFeatures > 0 && <li className="text-base-content/70">+{extraFeatures} more</li>}
          </ul>
        )}
        <CardActions service={service} busy={busy} canEdit={canEdit} onEdit={onEdit} onDelete={onDelete} onStock={onStock} onPrices={onPrices} />
      </div>
    </article>
  );
}
