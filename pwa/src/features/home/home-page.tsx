import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CheckIcon, LineIcon } from '../../components/line-icon.tsx';
import { usePageTitle } from '../../components/page-title.ts';

interface Tile {
  title: string;
  text: string;
  to: string;
  icon: ReactNode;
}

const svg = (path: ReactNode) => <LineIcon className="h-8 w-8">{path}</LineIcon>;

const tiles: Tile[] = [
  {
    title: 'All Country Wise',
    text: 'Verified Wise accounts for every country.',
    to: '/services',
    icon: svg(
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
      </>,
    ),
  },
  {
    title: 'Editable Files',
    text: 'Ready-to-edit documents and templates.',
    to: '/services',
    icon: svg(
      <>
        <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
        <path d="M14 3v6h6M8 13h8M8 17h5" />
      </>,
    ),
  },
  {
    title: 'VPS Services',
    text: 'Fast virtual private servers, set up for you.',
    to: '/services',
    icon: svg(
      <>
        <rect x="3" y="4" width="18" height="7" rx="1.5" />
        <rect x="3" y="13" width="18" height="7" rx="1.5" />
        <path d="M7 7.5h.01M7 16.5h.01" />
      </>,
    ),
  },
  {
    title: 'All Country SSN',
    text: 'Identity numbers for the country you need.',
    to: '/services',
    icon: svg(
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <circle cx="9" cy="11" r="2" />
        <path d="M6 16c.6-1.5 1.7-2 3-2s2.4.5 3 2M14 10h4M14 13h3" />
      </>,
    ),
  },
  {
    title: 'PROXY IP',
    text: 'SOCKS5 and HTTP proxies by the hour.',
    to: '/Proxy',
    icon: svg(
      <>
        <path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z" />
        <path d="M9 12l2 2 4-4" />
      </>,
    ),
  },
];

const badges = ['Instant Delivery', '24/7 Support', '100% Customizable', 'Secure & Private'];

export function HomePage() {
  usePageTitle(null);
  return (
    <div>
      <section className="bg-neutral text-neutral-content">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-16 text-center md:py-24">
          <h1 className="text-4xl font-extrabold tracking-tight md:text-6xl">Congratulations, Dear Buyer</h1>
          <p className="text-2xl font-bold md:text-3xl">YES, You're In The Right Place!</p>
          <p className="max-w-2xl text-lg">Premium digital services, delivered fast and ready to use.</p>
          <Link to="/services" className="btn btn-primary btn-lg mt-2">
            Explore Services
          </Link>
        </div>
      </section>

      <section aria-labelledby="home-tiles" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="home-tiles" className="mb-6 text-center text-3xl font-bold">
          What We Offer
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {tiles.map((tile) => (
            <li key={tile.title}>
              <Link
                to={tile.to}
                className="card h-full border border-base-300 bg-base-100 shadow-sm transition hover:-translate-y-1 hover:border-primary hover:shadow-md"
              >
                <div className="card-body items-center text-center">
                  <span className="text-primary">{tile.icon}</span>
                  <h3 className="card-title text-lg">{tile.title}</h3>
                  <p className="text-sm">{tile.text}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-badges" className="bg-base-200">
        <div className="mx-auto max-w-6xl px-4 py-10">
          <h2 id="home-badges" className="sr-only">
            Why buy from us
          </h2>
          <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {badges.map((badge) => (
              <li key={badge} className="flex items-center justify-center gap-2 rounded-box bg-base-100 p-4 font-semibold shadow-sm">
                <CheckIcon />
                {badge}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </div>
  );
}
