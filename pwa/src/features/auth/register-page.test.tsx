import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { RegisterPage, validateRegistration } from './register-page.tsx';

afterEach(cleanup);

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={['/register']}>
      <RegisterPage />
    </MemoryRouter>,
  );

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));

describe('RegisterPage', () => {
  it('says why the visitor was sent here', () => {
    const reason = 'Create a free account, or sign in, to see the full details of this service and order it.';
    render(
      <MemoryRouter initialEntries={[{ pathname: '/register', state: { from: '/service-details/x', reason } }]}>
        <RegisterPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('status').textContent).toBe(reason);
  });

  it('shows no reason to a visitor who came by themselves', () => {
    renderPage();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('labels every field and limits the mobile number to 15 characters', () => {
    renderPage();
    expect(screen.getByLabelText('Full Name')).toBeTruthy();
    expect(screen.getByLabelText('Email Address').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Mobile Number').getAttribute('maxLength') ?? screen.getByLabelText('Mobile Number').getAttribute('maxlength')).toBe('15');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    expect(screen.getByText('Minimum 6 characters').id).toBe(password.getAttribute('aria-describedby'));
  });

  it("says 'Please fill in all fields' when a field is empty", () => {
    renderPage();
    fill('Full Name', 'Ada Lovelace');
    fill('Email Address', 'ada@example.com');
    fill('Password', 'secret123');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all fields');
  });

  it('refuses a password shorter than 6 characters', () => {
    renderPage();
    fill('Full Name', 'Ada Lovelace');
    fill('Email Address', 'ada@example.com');
    fill('Mobile Number', '+8801712345678');
    fill('Password', '12345');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Password should be at least 6 characters');
    // Nothing was sent: the button never went busy.
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeTruthy();
  });

  it('shows and hides the password', () => {
    renderPage();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
  });

  it('links to sign in', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('keeps the return address, from its own address or the location state, in the link to sign in', () => {
    render(
      <MemoryRouter initialEntries={['/register?next=%2Fabout']}>
        <RegisterPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?next=%2Fabout');
    cleanup();
    render(
      <MemoryRouter initialEntries={[{ pathname: '/register', state: { from: '/service-details/x' } }]}>
        <RegisterPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?next=%2Fservice-details%2Fx');
  });
});

describe('validateRegistration', () => {
  const valid = { displayName: 'Ada', email: 'ada@example.com', mobile: '123', password: '123456' };

  it('accepts a complete form with a 6-character password', () => {
    expect(validateRegistration(valid)).toBeNull();
  });

  it('refuses a name with direction control characters (the server refuses it too), not a right-to-left one', () => {
    expect(validateRegistration({ ...valid, displayName: 'Ada\u202E' })).toBe('Your name must not hold direction control characters');
    expect(validateRegistration({ ...valid, displayName: 'محمد' })).toBeNull();
  });

  it('refuses a mobile number with letters or symbols (the server refuses it too), and takes spaces and a leading +', () => {
    for (const mobile of ['abc!!', '0171abc', '01-711', '017+1']) {
      expect(validateRegistration({ ...valid, mobile })).toBe('Your mobile number may hold only digits, spaces and a leading +');
    }
    expect(validateRegistration({ ...valid, mobile: '+880 1711 00011' })).toBeNull();
  });

  it('treats blank text as missing', () => {
    expect(validateRegistration({ ...valid, displayName: '   ' })).toBe('Please fill in all fields');
    expect(validateRegistration({ ...valid, mobile: '' })).toBe('Please fill in all fields');
  });
});
