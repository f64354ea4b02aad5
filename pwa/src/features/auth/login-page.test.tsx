import { AuthApiError } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthContext, signInErrorMessage } from '../../lib/auth.tsx';
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

  it('keeps the return address of its own address in the link to sign up', () => {
    render(
      <MemoryRouter initialEntries={['/login?next=%2Fservices%3Fcategory%3Dwise']}>
        <LoginPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register?next=%2Fservices%3Fcategory%3Dwise');
  });

  it.each([
    ['/login?next=%2Fservices', '/services'],
    ['/login?next=%2Fservice-details%2F42', '/service-details/42'],
    ['/login?next=%2F%2Fevil.example', '/'],
    ['/login?next=https%3A%2F%2Fevil.example', '/'],
  ])('sends a visitor already signed in at %s on to %s', async (entry, landed) => {
    const Where = () => <p>At {useLocation().pathname}</p>;
    render(
      <AuthContext value={{ status: 'signedIn', user: { id: 'u1', email: 'ada@example.com' } }}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </AuthContext>,
    );
    expect((await screen.findByText(/^At /)).textContent).toBe(`At ${landed}`);
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

  it('asks an account waiting for its confirmation (AUTH_CONFIRM_SIGNUPS) to open the mailed link, not for another password', () => {
    const unconfirmed = new AuthApiError('Email not confirmed', 400, 'email_not_confirmed');
    expect(signInErrorMessage(unconfirmed)).toBe('Please confirm your email address first: open the link we emailed you when you registered.');
  });

  it('tells apart being rate limited', () => {
    expect(signInErrorMessage(new AuthApiError('Too many requests', 429, 'over_request_rate_limit'))).toMatch(/Too many attempts/);
  });
});
