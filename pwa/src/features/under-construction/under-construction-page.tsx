import { Link, useLocation, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../components/page-title.ts';
import { useSettings } from '../../db/hooks.ts';

const PROGRESS = 75;

/** Screens the spec names but does not show (attendance, fees) land here. */
/** '/student-attn-reports' → 'Student Attn Reports: Under Construction'; the page's own address → 'Under Construction'. */
export function underConstructionTitle(pathname: string): string {
  const words = pathname.split('/').filter(Boolean).pop()?.split('-').filter(Boolean) ?? [];
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  return !name || name === 'Under Construction' ? 'Under Construction' : `${name}: Under Construction`;
}

export function UnderConstructionPage() {
  const { pathname } = useLocation();
  usePageTitle(underConstructionTitle(pathname));
  const navigate = useNavigate();
  const settings = useSettings();
  const support = settings.supportEmail
    ? { href: `mailto:${settings.supportEmail}`, label: settings.supportEmail, external: false }
    : settings.contactChatUrl
      ? { href: settings.contactChatUrl, label: 'Chat with support', external: true }
      : null;

  return (
    <div className="flex min-h-[70vh] items-center justify-center px-4 py-12">
      <div className="card w-full max-w-xl border border-base-300 bg-base-100 shadow-xl">
        <div className="card-body items-center gap-5 text-center">
          <div className="flex h-20 w-20 items-center justify-center rounded-full bg-warning/20 text-warning-content" aria-hidden="true">
            <svg viewBox="0 0 24 24" className="h-10 w-10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M2 20h20M5 20V9l7-5 7 5v11M9 20v-6h6v6" />
            </svg>
          </div>
          <h1 className="text-3xl font-bold">Under Construction</h1>
          <p className="text-base-content/80">We're working hard to bring you this page. It will be ready soon. Thank you for your patience!</p>

          <div className="w-full">
            <div className="mb-2 flex justify-between text-sm font-medium">
              <span id="construction-progress-label">Progress</span>
              <span aria-hidden="true">{PROGRESS}%</span>
            </div>
            <progress
              className="progress progress-primary h-3 w-full"
              value={PROGRESS}
              max={100}
              aria-labelledby="construction-progress-label"
              aria-valuetext={`${PROGRESS}% complete`}
            />
          </div>

          <div className="flex flex-wrap justify-center gap-3">
            <Link to="/" className="btn btn-primary">
              Return Home
            </Link>
            <button type="button" className="btn btn-outline" onClick={() => navigate(-1)}>
              Go Back
            </button>
          </div>

          {support && (
            <p className="text-sm text-base-content/80">
              Need help now? Contact support:{' '}
              <a href={support.href} className="link link-primary" {...(support.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                {support.label}
              </a>
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
