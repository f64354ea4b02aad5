import type { ReactNode } from 'react';
import type { SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { ExternalLink } from '../../components/external-link.tsx';
import { FeatureCard } from '../../components/feature-card.tsx';
import { LineIcon } from '../../components/line-icon.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { SOCIAL_NAMES, SocialIcon, type SocialNetwork } from '../../components/social-icons.tsx';
import { useSettings } from '../../db/device-hooks.ts';

const icon = (path: ReactNode) => <LineIcon className="h-7 w-7">{path}</LineIcon>;

/** The four networks the spec shows on this page. */
const socialNetworks: SocialNetwork[] = ['facebook', 'twitter', 'instagram', 'linkedin'];

/** The four ways to reach the shop, from its settings. */
function contactCards(settings: SiteSettings) {
  return [
    {
      title: 'Email Us',
      body: (
        <a className="link link-primary inline-flex min-h-11 items-center break-all" href={`mailto:${settings.supportEmail}`}>
          {settings.supportEmail}
        </a>
      ),
      icon: icon(
        <>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="M3 7l9 6 9-6" />
        </>,
      ),
    },
    {
      title: 'Call Us',
      body: (
        <a className="link link-primary inline-flex min-h-11 items-center" href={`tel:${settings.supportPhone.replace(/[^+\d]/g, '')}`}>
          {settings.supportPhone}
        </a>
      ),
      icon: icon(<path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />),
    },
    {
      title: 'Visit Us',
      body: <address className="not-italic">{settings.address}</address>,
      icon: icon(
        <>
          <path d="M12 21s-7-6.2-7-12a7 7 0 0 1 14 0c0 5.8-7 12-7 12z" />
          <circle cx="12" cy="9" r="2.5" />
        </>,
      ),
    },
    {
      title: 'Working Hours',
      body: <p>24/7, every day of the year</p>,
      icon: icon(
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </>,
      ),
    },
  ];
}

/** The shop's social channels; a link the admin left empty shows the button with no target (see the settings route). */
function SocialButtons({ links }: { links: SiteSettings['socialLinks'] }) {
  return (
    <ul className="mt-4 flex flex-wrap gap-3">
      {socialNetworks.map((network) => {
        const content = (
          <>
            <SocialIcon network={network} className="h-5 w-5" />
            {SOCIAL_NAMES[network]}
          </>
        );
        const href = links[network];
        return (
          <li key={network}>
            {href ? (
              <ExternalLink className="btn btn-outline" href={href}>
                {content}
              </ExternalLink>
            ) : (
              <span className="btn btn-outline pointer-events-none">{content}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function ContactPage() {
  usePageTitle('Contact Us');
  const settings = useSettings();
  const cards = contactCards(settings);

  return (
    <div>
      <section className="bg-neutral text-neutral-content">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center">
          <h1 className="text-4xl font-extrabold md:text-5xl">Contact Us</h1>
          <p className="mt-4 text-lg">Questions about a service or an order? We are here to help, day and night.</p>
        </div>
      </section>

      <section aria-labelledby="contact-info" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="contact-info" className="sr-only">
          How to reach us
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {cards.map((card) => (
            <FeatureCard key={card.title} icon={card.icon} title={card.title}>
              {card.body}
            </FeatureCard>
          ))}
        </ul>
      </section>

      <section aria-labelledby="contact-social" className="bg-base-200">
        <div className="mx-auto grid max-w-6xl gap-6 px-4 py-12 md:grid-cols-2">
          <div>
            <h2 id="contact-social" className="text-2xl font-bold">
              Follow Us
            </h2>
            <p className="mt-2">News, offers and updates on our social channels.</p>
            <SocialButtons links={settings.socialLinks} />
          </div>
          <div className="rounded-box bg-base-100 p-6 shadow-sm">
            <h2 className="text-2xl font-bold">Quick Response</h2>
            <p className="mt-2">We answer every message within 24 hours, usually much sooner.</p>
          </div>
        </div>
      </section>
    </div>
  );
}
