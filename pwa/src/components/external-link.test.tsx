import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ExternalLink } from './external-link.tsx';

describe('ExternalLink', () => {
  afterEach(cleanup);

  it('opens in a new tab safely and says so after its visible text', () => {
    render(<ExternalLink href="https://t.me/shop">Contact Us</ExternalLink>);
    const link = screen.getByRole('link', { name: 'Contact Us (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('https://t.me/shop');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    const hint = link.querySelector('.sr-only');
    expect(hint?.textContent).toBe(' (opens in a new tab)');
  });

  it('adds the hint to a label that replaces the text', () => {
    render(
      <ExternalLink href="https://t.me/bot" aria-label="Choose Plan: 12 Hours">
        Choose Plan
      </ExternalLink>,
    );
    expect(screen.getByRole('link', { name: 'Choose Plan: 12 Hours (opens in a new tab)' })).toBeTruthy();
  });
});
