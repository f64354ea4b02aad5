import type { SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import { ExternalLink } from './external-link.tsx';

export type SocialNetwork = keyof SiteSettings['socialLinks'];

export const SOCIAL_NAMES: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  twitter: 'Twitter',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
};

/** Simple line icons of the social networks; decorative, the link around one carries the name. */
export function SocialIcon({ network, className = 'h-4 w-4' }: { network: SocialNetwork; className?: string }) {
  const common = {
    'aria-hidden': true,
    viewBox: '0 0 24 24',
    className,
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
  };
  switch (network) {
    case 'facebook':
      return (
        <svg {...common}>
          <path d="M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V21M6 11h8" />
        </svg>
      );
    case 'twitter':
      return (
        <svg {...common}>
          <path d="M4 4l16 16M20 4L4 20" />
        </svg>
      );
    case 'instagram':
      return (
        <svg {...common}>
          <rect x="3" y="3" width="18" height="18" rx="5" />
          <circle cx="12" cy="12" r="4" />
          <path d="M17.5 6.5h.01" />
        </svg>
      );
    case 'linkedin':
      return (
        <svg {...common}>
          <path d="M5 10v10M5 5v.01M10 20v-10M10 14a4 4 0 0 1 8 0v6" />
        </svg>
      );
    case 'telegram':
      return (
        <svg {...common}>
          <path d="M21 4L3 11l6 2.5M21 4l-3 16-9-6.5M21 4L9 13.5V19l3-3.5" />
        </svg>
      );
    case 'whatsapp':
      return (
        <svg {...common}>
          <path d="M4 20l1.3-4A8 8 0 1 1 8 18.7L4 20z" />
          <path d="M9 9.5c0 3 2.5 5.5 5.5 5.5l1-1.5-2-1-1 1c-1-.5-2-1.5-2.5-2.5l1-1-1-2L9 9.5z" />
        </svg>
      );
  }
}

/** Links to the shop's social profiles (from settings); networks without a link are left out. */
export function SocialLinks({
  links,
  className = '',
  linkClassName = '',
}: {
  links: SiteSettings['socialLinks'];
  className?: string;
  /** Extra classes of each link, e.g. its colour on a dark bar. */
  linkClassName?: string;
}) {
  const present = (Object.keys(SOCIAL_NAMES) as SocialNetwork[]).filter((network) => links[network]);
  if (present.length === 0) return null;
  return (
    <ul className={`flex flex-wrap items-center gap-0 sm:gap-1 ${className}`} aria-label="Social media">
      {present.map((network) => (
        <li key={network}>
          <ExternalLink href={links[network]} className={`btn btn-ghost btn-circle btn-sm ${linkClassName}`}>
            <SocialIcon network={network} />
            <span className="sr-only">{SOCIAL_NAMES[network]}</span>
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}
