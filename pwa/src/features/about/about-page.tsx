import { Link } from 'react-router-dom';
import { CheckIcon } from '../../components/line-icon.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useCountUp } from './use-count-up.ts';

const counters = [
  { target: 250, suffix: '+', label: 'Happy Clients' },
  { target: 500, suffix: '+', label: 'Product Delivered' },
  { target: 100, suffix: '%', label: 'Satisfaction Rate' },
  { target: 150, suffix: '+', label: 'Countries Served' },
];

const values = [
  { title: 'Trust & Security', text: 'Your data and your purchases are handled privately and kept safe at every step.' },
  { title: 'Fast Delivery', text: 'Most orders are delivered within hours, many of them instantly.' },
  { title: 'Premium Quality', text: 'Every account, file and server is checked before it reaches you.' },
  { title: '24/7 Support', text: 'Real people answer around the clock, whatever your time zone.' },
];

const offerings = [
  'Verified Wise accounts for every country',
  'Editable documents and templates',
  'VPS servers, set up and ready to use',
  'SOCKS5 and HTTP proxy access',
  'All-country SSN services',
  'Custom document design on request',
  'Account setup and verification help',
  'Round-the-clock customer care',
];

function Counter({ target, suffix, label }: (typeof counters)[number]) {
  const value = useCountUp<HTMLSpanElement>(target);
  return (
    <div className="rounded-box bg-base-100 p-6 text-center shadow-sm">
      <p className="text-4xl font-extrabold text-primary" aria-hidden="true">
        <span ref={value}>0</span>
        {suffix}
      </p>
      <p className="sr-only">
        {target}
        {suffix} {label}
      </p>
      <p className="mt-1 font-medium" aria-hidden="true">
        {label}
      </p>
    </div>
  );
}

export function AboutPage() {
  usePageTitle('About Us');
  return (
    <div>
      <section className="bg-neutral text-neutral-content">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center md:py-20">
          <p className="text-lg font-semibold">Who We Are</p>
          <h1 className="mt-2 text-4xl font-extrabold md:text-5xl">Your Global Service Partner</h1>
          <p className="mt-4 text-lg">
            We help buyers around the world get the digital services they need: accounts, documents, servers and proxies, delivered quickly and backed by real
            support.
          </p>
        </div>
      </section>

      <section aria-labelledby="about-numbers" className="bg-base-200">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="about-numbers" className="sr-only">
            Our numbers
          </h2>
          <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {counters.map((counter) => (
              <Counter key={counter.label} {...counter} />
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="about-values" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="about-values" className="mb-6 text-center text-3xl font-bold">
          Our Core Values
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {values.map((value) => (
            <li key={value.title} className="card border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body">
                <h3 className="card-title">{value.title}</h3>
                <p>{value.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about-offerings" className="bg-base-200">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="about-offerings" className="mb-6 text-center text-3xl font-bold">
            What We Offer
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {offerings.map((offering) => (
              <li key={offering} className="flex items-center gap-3 rounded-box bg-base-100 p-4 shadow-sm">
                <CheckIcon className="h-5 w-5 shrink-0 text-primary" />
                {offering}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="about-mission" className="mx-auto max-w-4xl px-4 py-12 text-center">
        <h2 id="about-mission" className="text-3xl font-bold">
          Our Mission
        </h2>
        <p className="mt-4 text-lg">
          Our mission is to make premium digital services simple, safe and affordable for everyone, everywhere: honest prices, fast delivery and support that is
          there whenever you need it.
        </p>
        <Link to="/services" className="btn btn-primary mt-6">
          Browse Services
        </Link>
      </section>
    </div>
  );
}
