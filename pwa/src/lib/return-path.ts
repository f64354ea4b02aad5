/*
 * Returning after sign-in. Whoever sends a visitor to /login or /register says where they were, and the
 * sign-in screens go back there afterwards (else to /). Inside the app that is the router's location state:
 *
 *   navigate('/register', { state: { from: location } })
 *   <Navigate to="/login" replace state={{ from: location, reason: 'Sign in to see your profile.' }} />
 *
 * `from` may be a router Location or a path string. `reason`, when given, is shown on the sign-in
 * screens, so a visitor sent there knows why.
 *
 * A link the server renders (decision 053) may be followed before the app has taken the page over: a full
 * page load, with no location state. Such links carry the address themselves, `/login?next=%2Fservices`
 * (signInHref), and the sign-in screens read it when there is no state. Anyone can write a `next` into a
 * link to this site, so only a path of this site is ever taken from it (safeReturnPath).
 */
export interface ReturnState {
  from?: { pathname: string; search?: string; hash?: string } | string;
  reason?: string;
}

/** Why the visitor was sent to sign in, if whoever sent them said. */
export function returnReason(state: unknown): string | null {
  const reason = (state as ReturnState | null)?.reason;
  return typeof reason === 'string' && reason.trim() ? reason : null;
}

/** The query parameter of a sign-in screen's address that says where to return. */
export const RETURN_PARAM = 'next';

const SIGN_IN_SCREEN = /^\/(login|register)(?:\/|$)/i;
const SAME_ORIGIN = 'https://return.invalid';

/**
 * `candidate` when it is a path of this site other than a sign-in screen, normalised (`/a/../b` is `/b`);
 * else null. One leading slash, not followed by another or by a backslash (browsers read `/\host` as
 * `//host`, another site), no backslash or control character anywhere (a URL parser drops tabs and
 * newlines, so `/<tab>/host` would be `//host` too), and it must resolve to this origin.
 */
export function safeReturnPath(candidate: unknown): string | null {
  if (typeof candidate !== 'string' || !/^\/(?![/\\])/.test(candidate)) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\\\u0000-\u001f\u007f]/.test(candidate)) return null;
  let url: URL;
  try {
    url = new URL(candidate, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN) return null;
  // The router matches decoded paths: `/%6Cogin` is the login screen too.
  let decoded = url.pathname;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    // a malformed escape matches no route: the path is what it is
  }
  if (SIGN_IN_SCREEN.test(url.pathname) || SIGN_IN_SCREEN.test(decoded)) return null;
  // Dot segments can leave two slashes in front once resolved (`/.//host` is `//host`): the router takes
  // that for another site (and refuses it, leaving the visitor on the sign-in screen with an error; a
  // history fallback would go there), so the normalised path is checked again.
  if (!/^\/(?![/\\])/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Where to go after signing in: the `from` of the location state, else the `next` parameter of the sign-in
 * screen's own query (`search`), whichever is a safe path of this site first (safeReturnPath); else '/'.
 */
export function returnPath(state: unknown, search = ''): string {
  const from = (state as ReturnState | null)?.from;
  const path = typeof from === 'string' ? from : from?.pathname ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '';
  return safeReturnPath(path) ?? safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM)) ?? '/';
}

/**
 * The address of a sign-in screen that returns to `path` afterwards: `/login?next=%2Fservices`; the bare
 * screen when `path` is home or not a safe return (a sign-in screen itself, another site).
 */
export function signInHref(screen: '/login' | '/register', path: string): string {
  const back = safeReturnPath(path);
  return back && back !== '/' ? `${screen}?${new URLSearchParams({ [RETURN_PARAM]: back }).toString()}` : screen;
}
