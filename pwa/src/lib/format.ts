/** Shared formatting: one place decides how greetings, roles, ids and dates read everywhere. */

export type Greeting = 'Good Morning' | 'Good Afternoon' | 'Good Evening';

/** Spec (Profile): morning before 12, afternoon before 18, evening otherwise; by the visitor's local clock. */
export function greetingFor(date: Date = new Date()): Greeting {
  const hour = date.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}

/** The daisyUI badge colour of a role; each role reads differently, an unknown one stays neutral. */
export function roleBadgeClass(role: string | null | undefined): string {
  switch (role) {
    case 'admin':
      return 'badge badge-error';
    case 'moderator':
      return 'badge badge-warning';
    case 'user':
      return 'badge badge-info';
    default:
      return 'badge badge-ghost';
  }
}

/** Roles are shown upper case (spec: profile badge). */
export const roleLabel = (role: string | null | undefined): string => (role ? role.toUpperCase() : 'UNKNOWN');

/** The last `length` characters of an id: 8 on orders, 12 on service details (spec section 9). */
export const shortId = (id: string, length = 8): string => (id.length > length ? id.slice(-length) : id);

/**
 * One `Intl.DateTimeFormat` per locale and options, made at first use and kept: `toLocaleString` makes
 * one on every call, about a millisecond each, which a list of order cards paid dozens of times on its
 * first render.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Short en-US date, e.g. 11/21/2026; 'Unknown' when missing or unreadable (spec: user list). */
export function formatDateShort(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat('en-US').format(date) : 'Unknown';
}

/** Long en-US date, e.g. November 21, 2026 (spec: stock details). */
export function formatDateLong(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' }).format(date) : 'Unknown';
}

/** en-US date and time, e.g. Nov 21, 2026, 3:04 PM. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(date) : 'Unknown';
}

/** The first letter upper case, the rest as it is (the statuses in the order list and its filters). */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The first letter of a name for an avatar, '?' when there is none. */
export const initialOf = (name: string | null | undefined): string => name?.trim().charAt(0).toUpperCase() || '?';

/** '1 change', '3 changes': how many of the device's changes wait or were refused. */
export const changesCount = (count: number) => (count === 1 ? '1 change' : `${count} changes`);
