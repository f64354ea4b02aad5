import type { ReactNode } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import { FeatureCard } from '../../components/feature-card.tsx';
import { CheckIcon, LineIcon } from '../../components/line-icon.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useSettings } from '../../db/device-hooks.ts';

const icon = (path: ReactNode) => <LineIcon className="h-7 w-7">{path}</LineIcon>;

const features = [
  {
    title: 'High Security',
    text: 'Private, encrypted connections that keep your traffic yours.',
    icon: icon(<path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z" />),
  },
  { title: 'Lightning Fast', text: 'High-speed servers with 99.9% uptime.', icon: icon(<path d="M13 2L4 14h7l-1 8 9-12h-7z" />) },
  {
    title: '24/7 Available',
    text: 'Buy and activate a proxy at any hour, any day.',
    icon: icon(
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7v5l3 2" />
      </>,
    ),
  },
  {
    title: 'Affordable',
    text: 'Plans from 100 BDT, paid with mobile money.',
    icon: icon(
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.7 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6v2M12 16v2" />
      </>,
    ),
  },
];

const steps = [
  { title: 'Sign Up', text: 'Open our Telegram bot and start a chat.' },
  { title: 'Choose Plan', text: 'Pick the 12 or 24 hour plan that suits you.' },
  { title: 'Payment', text: 'Send the price to one of our mobile-money wallets.' },
  { title: 'Get Proxy', text: 'Receive your proxy details as soon as the payment is approved.' },
];

const baseFeatures = ['SOCKS5 Proxy', 'HTTP Proxy', 'Instant Activation', '24/7 Support'];

const plans = [
  { duration: '12 Hours', price: 100, popular: false, features: baseFeatures },
  { duration: '24 Hours', price: 140, popular: true, features: [...baseFeatures, 'Priority Support'] },
];

/** The two plans, each with a way to choose it on Telegram. */
function PlanCards({ telegramBotUrl }: { telegramBotUrl: string }) {
  return (
    <section aria-labelledby="proxy-plans" className="mx-auto max-w-5xl px-4 py-12">
      <h2 id="proxy-plans" className="mb-6 text-center text-3xl font-bold">
        Choose Your Plan
      </h2>
      <div className="grid gap-6 md:grid-cols-2">
        {plans.map((plan) => (
          <article key={plan.duration} className={`card bg-base-100 shadow-md ${plan.popular ? 'border-2 border-primary' : 'border border-base-300'}`}>
            <div className="card-body">
              <div className="flex items-center justify-between gap-2">
                <h3 className="card-title text-2xl">{plan.duration}</h3>
                {plan.popular && <span className="badge badge-primary font-bold">POPULAR</span>}
              </div>
              <p className="text-4xl font-extrabold">
                {plan.price} <span className="text-xl font-semibold">BDT</span>
              </p>
              <ul className="my-4 flex-1 space-y-2">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex items-center gap-2">
                    <CheckIcon />
                    {feature}
                  </li>
                ))}
              </ul>
              <ExternalLink
                className={`btn ${plan.popular ? 'btn-primary' : 'btn-outline btn-primary'}`}
                aria-label={`Choose Plan: ${plan.duration}`}
                href={telegramBotUrl}
              >
                Choose Plan
              </ExternalLink>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}

export function ProxyPage() {
  usePageTitle('Proxy IP Access');
  const settings = useSettings();

  return (
    <div>
      <section className="bg-neutral text-neutral-content">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-4 px-4 py-16 text-center md:py-20">
          <h1 className="text-4xl font-extrabold md:text-5xl">Premium Proxy IP Access</h1>
          <p className="text-lg">Fast, secure SOCKS5 and HTTP proxies for 12 or 24 hours, paid with mobile money.</p>
          <ExternalLink className="btn btn-primary btn-lg" href={settings.telegramBotUrl}>
            Get Started on Telegram
          </ExternalLink>
          <p className="font-semibold">500+ Users</p>
        </div>
      </section>

      <section aria-labelledby="proxy-features" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="proxy-features" className="mb-6 text-center text-3xl font-bold">
          Why Choose Our Proxies
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <FeatureCard key={feature.title} icon={feature.icon} title={feature.title}>
              <p>{feature.text}</p>
            </FeatureCard>
          ))}
        </ul>
      </section>

      <section aria-labelledby="proxy-steps" className="bg-base-200">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="proxy-steps" className="mb-6 text-center text-3xl font-bold">
            How it works
          </h2>
          <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-box bg-base-100 p-6 text-center shadow-sm">
                <span
                  className="mx-auto mb-3 flex h-10 w-10 items-center justify-center rounded-full bg-primary font-bold text-primary-content"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <h3 className="text-lg font-bold">{step.title}</h3>
                <p className="mt-1">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <PlanCards telegramBotUrl={settings.telegramBotUrl} />

      <section aria-labelledby="proxy-payment" className="bg-base-200">
        <div className="mx-auto max-w-5xl px-4 py-12">
          <h2 id="proxy-payment" className="mb-2 text-center text-3xl font-bold">
            Payment Methods
          </h2>
          <p className="mb-6 text-center">Send the plan price to one of these numbers, then share the transaction ID with our bot.</p>
          <ul className="grid gap-4 sm:grid-cols-3">
            {settings.wallets.map((wallet) => (
              <li key={wallet.name} className="rounded-box bg-base-100 p-6 text-center shadow-sm">
                <h3 className="text-lg font-bold">{wallet.name}</h3>
                <p className="mt-1 font-mono text-lg">{wallet.number}</p>
              </li>
            ))}
          </ul>
          <p className="alert alert-info mt-6 justify-center">Approval usually takes 5-30 minutes after payment verification</p>
          <p className="mt-6 text-center">
            Questions before you buy? Contact our sales team: <span className="font-semibold">{settings.salesHandle}</span>
          </p>
        </div>
      </section>
    </div>
  );
}
