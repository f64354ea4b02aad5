import { AuthApiError } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { returnPath, signInErrorMessage } from '../../lib/auth.tsx';
import { LoginPage } from './login-page.tsx';

afterEach(cleanup);

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={['/login']}>
      <LoginPage />
    </MemoryRouter>,
  );

describe('LoginPage', () => {
  it('labels both fields', () => {
    renderPage();
    expect(screen.getByLabelText('Email Address').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
  });

  it("says 'Please fill in all fields' without a password", () => {
    renderPage();
    fireEvent.change(screen.getByLabelText('Email Address'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all fields');
  });

  it("says 'Please fill in all fields' without an email", () => {
    renderPage();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all fields');
  });
});

describe('signInErrorMessage', () => {
  it('answers a wrong email or password casually', () => {
    const wrong = new AuthApiError('Invalid login credentials', 400, 'invalid_credentials');
    expect(signInErrorMessage(wrong)).toBe("Oops! That email or password doesn't look right.");
  });

  it('tells apart being rate limited', () => {
    expect(signInErrorMessage(new AuthApiError('Too many requests', 429, 'over_request_rate_limit'))).toMatch(/Too many attempts/);
  });
});

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
});
