import { isRouteErrorResponse, Link, useNavigate, useRouteError } from 'react-router-dom';
import { usePageTitle } from '../components/page-title.ts';

/** A friendly page for unknown addresses and for screens that failed to load or crashed. */
export function ErrorPage() {
  const error = useRouteError();
  const navigate = useNavigate();
  const notFound = !error || (isRouteErrorResponse(error) && error.status === 404);
  // A screen's code that could not be fetched (offline before it was cached, or a new release).
  const loadFailed = error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
  if (error && !notFound) console.error(error);
  // As the '*' route it renders inside a layout's <main>; as an error boundary it replaces the layout.
  const Root = error ? 'main' : 'div';
  usePageTitle(notFound ? 'Page not found' : 'Something went wrong');

  return (
    <Root className="flex min-h-[70vh] flex-col items-center justify-center gap-5 p-8 text-center">
      <p className="text-7xl font-black text-primary" aria-hidden="true">
        {notFound ? '404' : 'Oops!'}
      </p>
      <h1 className="text-3xl font-bold">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="max-w-md text-base-content/80">
        {notFound
          ? 'The page you are looking for does not exist or has moved.'
          : loadFailed
            ? 'This page could not be loaded. Check your internet connection and try again.'
            : 'An unexpected error occurred. Please try again.'}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link className="btn btn-primary" to="/">
          Return Home
        </Link>
        {notFound ? (
          <button type="button" className="btn btn-outline" onClick={() => navigate(-1)}>
            Go Back
          </button>
        ) : (
          <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
            Try Again
          </button>
        )}
      </div>
    </Root>
  );
}
