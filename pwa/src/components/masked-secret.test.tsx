import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MaskedSecret } from './masked-secret.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const button = () => screen.getByRole('button', { name: /password of Arif Hossain/ });

describe('MaskedSecret', () => {
  it('shows dots until its button is tapped, and masks again on Hide', () => {
    render(<MaskedSecret label="password of Arif Hossain" value="Wise#Arif2026" />);
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
    expect(screen.getByText('••••••••••••')).toBeTruthy();
    expect(button().getAttribute('aria-pressed')).toBe('false');
    expect(button().textContent).toBe('Show password of Arif Hossain');

    fireEvent.click(button());
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    expect(button().getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(button());
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
  });

  it('masks the secret again after a while by itself', () => {
    vi.useFakeTimers();
    render(<MaskedSecret label="password of Arif Hossain" value="Wise#Arif2026" hideAfterMs={30_000} />);
    fireEvent.click(button());
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
  });

  it('asks a reveal function at each look and shows its answer, or says it failed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reveal = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('From#Server1');
    render(<MaskedSecret label="password of Arif Hossain" reveal={reveal} />);
    await act(async () => fireEvent.click(button()));
    expect(screen.getByRole('alert').textContent).toBe('Could not show it. Try again.');
    expect(screen.queryByText('From#Server1')).toBeNull();

    await act(async () => fireEvent.click(button()));
    expect(screen.getByText('From#Server1')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(button());
    await act(async () => fireEvent.click(button()));
    expect(reveal).toHaveBeenCalledTimes(3);
  });
});
