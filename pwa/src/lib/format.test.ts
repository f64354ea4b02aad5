import { describe, expect, it } from 'vitest';
import { capitalize, formatDateLong, formatDateShort, greetingFor, initialOf, roleBadgeClass, roleLabel, shortId } from './format.ts';

const at = (hour: number, minute = 0) => new Date(2026, 10, 21, hour, minute);

describe('greetingFor', () => {
  it('says Good Morning from midnight until just before noon', () => {
    expect(greetingFor(at(0))).toBe('Good Morning');
    expect(greetingFor(at(11, 59))).toBe('Good Morning');
  });

  it('says Good Afternoon from noon until just before six in the evening', () => {
    expect(greetingFor(at(12))).toBe('Good Afternoon');
    expect(greetingFor(at(17, 59))).toBe('Good Afternoon');
  });

  it('says Good Evening from six in the evening', () => {
    expect(greetingFor(at(18))).toBe('Good Evening');
    expect(greetingFor(at(23, 59))).toBe('Good Evening');
  });
});

describe('roles', () => {
  it('gives every role its own badge colour', () => {
    const classes = ['admin', 'moderator', 'user'].map(roleBadgeClass);
    expect(new Set(classes).size).toBe(3);
    for (const c of classes) expect(c).toMatch(/^badge badge-\w+$/);
  });

  it('shows roles upper case', () => {
    expect(roleLabel('moderator')).toBe('MODERATOR');
    expect(roleLabel(undefined)).toBe('UNKNOWN');
  });
});

describe('shortId', () => {
  it('keeps the last characters of an id', () => {
    expect(shortId('0f8e1c2a-1111-4222-8333-9abcdef01234')).toBe('def01234');
    expect(shortId('0f8e1c2a-1111-4222-8333-9abcdef01234', 12)).toBe('9abcdef01234');
    expect(shortId('abc')).toBe('abc');
  });
});

describe('dates', () => {
  const date = new Date(2026, 10, 21, 15, 4);

  it('formats short and long en-US dates', () => {
    expect(formatDateShort(date)).toBe('11/21/2026');
    expect(formatDateLong(date.toISOString())).toBe('November 21, 2026');
  });

  it("reads 'Unknown' for a missing or unreadable date", () => {
    expect(formatDateShort(undefined)).toBe('Unknown');
    expect(formatDateShort('not a date')).toBe('Unknown');
    expect(formatDateLong('')).toBe('Unknown');
  });
});

describe('capitalize', () => {
  it('upper-cases the first letter only', () => {
    expect(capitalize('pending')).toBe('Pending');
    expect(capitalize('editableFile')).toBe('EditableFile');
    expect(capitalize('')).toBe('');
  });
});

describe('initialOf', () => {
  it('takes the first letter, upper case', () => {
    expect(initialOf(' ada')).toBe('A');
    expect(initialOf('')).toBe('?');
  });
});
