import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ServiceBody } from './service-form.ts';
import { ServiceModal } from './service-modal.tsx';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: /Create Service|Update Service/ }));

function fillRequired() {
  type('Title', 'UK Wise Account');
  type('Category', 'wise');
  type('Description', 'Verified personal account');
  type('Price', '45');
  type('Delivery Time', 'instant');
  type('Image URL', 'https://img.example/wise.png');
}

describe('service modal', () => {
  it('starts in create mode with one empty entry per list, each removable only when more than one', () => {
    render(<ServiceModal service={null} save={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Create Service' })).toBeTruthy();
    expect((screen.getByLabelText('Feature 1') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Payment Method 1') as HTMLSelectElement).value).toBe('');
    expect(screen.queryByRole('button', { name: 'Remove Feature 1' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /Add Feature/ }));
    expect(screen.getByLabelText('Feature 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Feature 2' }));
    expect(screen.queryByLabelText('Feature 2')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Feature 1' })).toBeNull();
  });

  it('refuses to save without the required fields or with an image that is not a URL', () => {
    const save = vi.fn<(body: ServiceBody) => Promise<void>>();
    render(<ServiceModal service={null} save={save} onClose={vi.fn()} />);
    submit();
    expect(screen.getByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Image URL is required')).toBeTruthy();
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');

    fillRequired();
    type('Image URL', 'a nice picture');
    submit();
    expect(screen.getByText(/must be a valid URL/)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('sends the fields with blank features and payment methods dropped', async () => {
    const save = vi.fn<(body: ServiceBody) => Promise<void>>().mockResolvedValue(undefined);
    render(<ServiceModal service={null} save={save} onClose={vi.fn()} />);
    fillRequired();
    type('Feature 1', 'Full KYC');
    fireEvent.click(screen.getByRole('button', { name: /Add Feature/ }));
    fireEvent.click(screen.getByRole('button', { name: /Add Feature/ }));
    type('Feature 3', 'Debit card');
    fireEvent.click(screen.getByRole('button', { name: /Add Payment Method/ }));
    type('Payment Method 2', 'wise');
    fireEvent.click(screen.getByLabelText('Mark as popular service'));
    submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0]).toEqual({
      title: 'UK Wise Account',
      category: 'wise',
      description: 'Verified personal account',
      price: '45',
      deliveryTime: 'instant',
      image: 'https://img.example/wise.png',
      features: ['Full KYC', 'Debit card'],
      paymentMethods: ['wise'],
      popular: true,
      autoDeliver: false,
      lowStockThreshold: null,
      warrantyDays: 0,
      deliveryKind: 'account',
    });
  });

  it('edits a service in update mode and shows why a save failed, staying open', async () => {
    const service: Service = {
      id: '00000000-0000-4000-8000-000000000001',
      title: 'Windows VPS',
      description: 'Fast server',
      category: 'vps',
      features: ['2 vCPU', '4 GB RAM', '80 GB SSD'],
      popular: false,
      image: '/files/service-images/vps.png',
      price: '25',
      deliveryTime: '6hours',
      paymentMethods: ['binance', 'paypal'],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      version: 4,
    };
    const save = vi.fn<(body: ServiceBody) => Promise<void>>().mockRejectedValue(new Error('This service was changed by someone else meanwhile.'));
    const onClose = vi.fn();
    render(<ServiceModal service={service} save={save} onClose={onClose} />);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Windows VPS');
    expect((screen.getByLabelText('Feature 3') as HTMLInputElement).value).toBe('80 GB SSD');
    // A payment method outside the known ids is kept as a choice.
    expect((screen.getByLabelText('Payment Method 2') as HTMLSelectElement).value).toBe('paypal');
    submit();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This service was changed by someone else meanwhile.')).toBeTruthy();
    expect(save.mock.calls[0]![0]).toMatchObject({ paymentMethods: ['binance', 'paypal'], image: '/files/service-images/vps.png' });
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});
