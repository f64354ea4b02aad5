import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, useToast } from './toast.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Trigger() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast.success('Service added successfully!')}>
        ok
      </button>
      <button type="button" onClick={() => toast.error('Failed to delete service', 3000)}>
        fail
      </button>
    </>
  );
}

describe('useToast', () => {
  it('announces a success politely and removes it after 2 seconds', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('ok'));
    const message = screen.getByText('Service added successfully!');
    expect(message.closest('[aria-live="polite"]')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByText('Service added successfully!')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Service added successfully!')).toBeNull();
  });

  it('keeps a toast for the time given, and lets it be dismissed earlier', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('fail'));
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.queryByText('Failed to delete service')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Failed to delete service')).toBeNull();
  });
});
