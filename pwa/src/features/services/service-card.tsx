import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { CheckIcon } from '../../components/line-icon.tsx';
import { categoryLabel } from '../../lib/catalog.ts';
import { DisplayPrice } from '../../lib/display-currency-price.tsx';

/** A card renders again only for another service object (usePublicServices keeps the same ones while nothing changed). */
export const ServiceCard = memo(function ServiceCard({
  service,
  currency = null,
  reservePriceLine = false,
}: {
  service: Service;
  /** The customer's display currency (decision 241); null: USD. */
  currency?: DisplayCurrency | null;
  /** Keep room for the USD line under a converted price, so the converted price replaces the server's without a shift. */
  reservePriceLine?: boolean;
}) {
  return (
    <article className="card h-full overflow-hidden border border-base-300 bg-base-100 shadow-sm transition hover:shadow-lg">
      <figure className="relative aspect-video bg-base-200">
        {service.image ? (
          <img src={service.image} alt={service.title} loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-base-content/70" role="img" aria-label={service.title}>
            <svg viewBox="0 0 24 24" className="h-12 w-12" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
              <rect x="3" y="4" width="18" height="16" rx="2" />
              <path d="M3 16l5-5 4 4 3-3 6 6" />
            </svg>
          </div>
        )}
        {/* The spec's badge, on the services the shop marks popular: on every card it would say nothing (decision 035). */}
        {service.popular && <span className="badge badge-warning absolute top-3 right-3 font-bold">PREMIUM</span>}
      </figure>
      <div className="card-body gap-3">
        <p className="text-sm font-semibold text-primary">{categoryLabel(service.category)}</p>
        <h2 className="card-title text-xl">{service.title}</h2>
        <p className="line-clamp-2">{service.description}</p>
        {service.features.length > 0 && (
          <ul className="space-y-1 text-sm">
            {service.features.slice(0, 2).map((feature, index) => (
              <li key={index} className="flex items-start gap-2">
                <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-success" />
                {feature}
              </li>
            ))}
          </ul>
        )}
        <div className="mt-auto flex items-center justify-between gap-2 pt-2">
          <DisplayPrice
            price={service.price}
            currency={currency}
            className="text-2xl font-extrabold"
            unitClassName="text-sm font-semibold"
            reserveLine={reservePriceLine}
          />
          <Link to={`/service-details/${service.id}`} className="btn btn-primary btn-sm" aria-label={`View Details: ${service.title}`}>
            View Details
          </Link>
        </div>
      </div>
    </article>
  );
});
