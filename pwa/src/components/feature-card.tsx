import type { ReactNode } from 'react';

/** A centred card in a grid list: icon, title and a line or link under it (contact details, proxy features). */
export function FeatureCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body items-center text-center">
        <span className="text-primary">{icon}</span>
        <h3 className="card-title">{title}</h3>
        {children}
      </div>
    </li>
  );
}
