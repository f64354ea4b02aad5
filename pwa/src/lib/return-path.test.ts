import { describe, expect, it } from 'vitest';
import { returnPath, safeReturnPath, signInHref } from './return-path.ts';

describe('returnPath', () => {
  it('goes back to where the visitor came from', () => {
    expect(returnPath({ from: { pathname: '/service-details/42', search: '?a=1', hash: '' } })).toBe('/service-details/42?a=1');
    expect(returnPath({ from: '/my-orders' })).toBe('/my-orders');
  });

  it('falls back to / without a usable origin, and never returns to a sign-in screen', () => {
    expect(returnPath(null)).toBe('/');
    expect(returnPath({ from: { pathname: '/login' } })).toBe('/');
    expect(returnPath({ from: '/register?x=1' })).toBe('/');
    expect(returnPath({ from: '//evil.example' })).toBe('/');
  });

  it("reads the sign-in screen's `next` when there is no location state (a link followed before the app took over)", () => {
    expect(returnPath(null, '?next=%2Fservices')).toBe('/services');
    expect(returnPath(undefined, '?next=%2Fservices%3Fcategory%3Dwise')).toBe('/services?category=wise');
    expect(returnPath({}, '?next=/about')).toBe('/about');
    expect(returnPath(null, '')).toBe('/');
    expect(returnPath(null, '?next=')).toBe('/');
  });

  it('prefers the location state to `next`, and takes `next` when the state is unusable', () => {
    expect(returnPath({ from: '/my-orders' }, '?next=%2Fservices')).toBe('/my-orders');
    expect(returnPath({ from: '/login' }, '?next=%2Fservices')).toBe('/services');
  });

  // Anyone can put a `next` into a link to this site: only a path of this site may come out of it.
  it.each([
    '//evil.com',
    '///evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    '/\\/evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r/evil.com',
    ' //evil.com',
    'https://evil.com',
    'HTTPS://evil.com/services',
    'http:/evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'evil.com',
    '.evil.com',
    '',
    '/login',
    '/LOGIN?next=%2Fservices',
    '/register/',
    '/%6Cogin',
    '/a/../login',
    '/./register',
    // Dot segments that leave `//host` once resolved: the router would take it for another site.
    '/.//evil.com',
    '/a/..//evil.com',
    '/%2e//evil.com',
    '/%2E%2e//evil.com',
    '/./\\/evil.com',
  ])('refuses %j from `next`', (hostile) => {
    expect(returnPath(null, `?${new URLSearchParams({ next: hostile })}`)).toBe('/');
    expect(returnPath({ from: hostile })).toBe('/');
    expect(safeReturnPath(hostile)).toBeNull();
  });

  it.each([
    // Encoded once more than the query needs: still only a string that is no path of this site.
    ['?next=%252F%252Fevil.com', '/'],
    ['?next=%2F%5Cevil.com', '/'],
    ['?next=%2F%09%2Fevil.com', '/'],
    ['?next=%2F%2F%65vil.com', '/'],
    ['?next=javascript%3Aalert(1)', '/'],
    // A slash that is percent-encoded is no separator: the browser stays on this site.
    ['?next=%2F%252F%252Fevil.com', '/%2F%2Fevil.com'],
    ['?next=%2F%255Cevil.com', '/%5Cevil.com'],
    ['?next=%2F%20%2Fevil.com', '/%20/evil.com'],
  ])('reads the encoded %s as %s', (search, landed) => {
    expect(returnPath(null, search)).toBe(landed);
  });

  it('answers a normalised path of this site', () => {
    expect(safeReturnPath('/services/../about?x=1#team')).toBe('/about?x=1#team');
    expect(safeReturnPath('/service-details/42')).toBe('/service-details/42');
    expect(safeReturnPath('/Proxy')).toBe('/Proxy');
    expect(safeReturnPath(undefined)).toBeNull();
    expect(safeReturnPath(42)).toBeNull();
  });
});

describe('signInHref', () => {
  it('puts the return address in the address of the sign-in screen', () => {
    expect(signInHref('/login', '/services')).toBe('/login?next=%2Fservices');
    expect(signInHref('/register', '/services?category=wise')).toBe('/register?next=%2Fservices%3Fcategory%3Dwise');
    expect(returnPath(null, new URL(signInHref('/login', '/services?category=wise&q=a b'), 'http://x').search)).toBe('/services?category=wise&q=a%20b');
  });

  it('leaves it out for home and for anything that is no safe return', () => {
    expect(signInHref('/login', '/')).toBe('/login');
    expect(signInHref('/login', '/login?next=%2Fservices')).toBe('/login');
    expect(signInHref('/register', '//evil.com')).toBe('/register');
  });
});
