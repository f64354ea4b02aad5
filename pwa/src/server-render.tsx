import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { PublicLayout } from './app/public-layout.tsx';
import { ConfirmProvider } from './components/confirm-dialog.tsx';
import { PageTitleSink } from './components/page-title.ts';
import { ToastProvider } from './components/toast.tsx';
import { AboutPage } from './features/about/about-page.tsx';
import { ContactPage } from './features/contact/contact-page.tsx';
import { HomePage } from './features/home/home-page.tsx';
import { ProxyPage } from './features/proxy/proxy-page.tsx';
import { ServicesPage } from './features/services/services-page.tsx';
import { PublicSnapshotContext, snapshotScript, type PublicSnapshot } from './lib/public-snapshot.tsx';

// The server render of the public pages (decision 053), built by `vite build --ssr` into dist-ssr/ and
// used by the Node entry: the same components as the app, in the same frame, from the database's rows.

const pages: Record<string, () => React.JSX.Element> = {
  '/': () => <HomePage />,
  '/about': () => <AboutPage />,
  '/contact': () => <ContactPage />,
  '/services': () => <ServicesPage />,
  // Routes match case-insensitively in the app, so /proxy and /Proxy are one page.
  '/proxy': () => <ProxyPage />,
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Whether `pathname` is a public page the server renders. */
export const isPublicPage = (pathname: string) => Object.hasOwn(pages, pathname.toLowerCase());

/**
 * The app shell `template` (dist/index.html) with a public page inside `#root` as a signed-out visitor
 * sees it, followed by the rows it was rendered from (which the app's first render uses); null for any
 * other path.
 */
export function renderPublicPage(template: string, url: string, snapshot: PublicSnapshot): string | null {
  const { pathname } = new URL(url, 'http://localhost');
  const page = pages[pathname.toLowerCase()];
  if (!page) return null;
  let title: string | undefined;
  const html = renderToString(
    <PageTitleSink value={(pageTitle) => (title = pageTitle)}>
      <PublicSnapshotContext value={snapshot}>
        <ToastProvider>
          <ConfirmProvider>
            <StaticRouter location={url}>
              <Routes>
                <Route path="/" element={<PublicLayout />}>
                  <Route path="*" element={page()} />
                  <Route index element={page()} />
                </Route>
              </Routes>
            </StaticRouter>
          </ConfirmProvider>
        </ToastProvider>
      </PublicSnapshotContext>
    </PageTitleSink>,
  );
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('The app shell has no empty <div id="root"></div> to render into');
  const rendered = template.replace(root, () => `<div id="root">${html}</div>${snapshotScript(snapshot)}`);
  // The page's own title (decision 070), as the app sets it once it has taken over.
  return title === undefined ? rendered : rendered.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title!)}</title>`);
}
