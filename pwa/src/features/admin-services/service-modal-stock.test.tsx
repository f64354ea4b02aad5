import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ServiceBody } from './service-form.ts';
import { ServiceModal } from './service-modal.tsx';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: /Create Service|Update Service/ }));
const AUTO = 'Deliver automatically from stock when the order is marked paid';
const THRESHOLD = 'Low-stock threshold for this service';

function fillRequired(category: string) {
  type('Title', 'UK Wise Account');
  type('Category', category);
  type('Description', 'Verified personal account');
  type('Price', '45');
  type('Delivery Time', 'instant');
  type('Image URL', 'https://img.example/wise.png');
}

describe('service modal: automatic delivery and low-stock threshold (issue 16, items 5-6)', () => {
  it('sends automatic delivery and the threshold typed; an empty threshold is the shop’s (null)', async () => {
    const save = vi.fn<(body: ServiceBody) => Promise<void>>().mockResolvedValue(undefined);
    render(<ServiceModal service={null} save={save} onClose={vi.fn()} />);
    fillRequired('wise');
    fireEvent.click(screen.getByLabelText(AUTO));
    type(THRESHOLD, '4');
    submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0]).toMatchObject({ autoDeliver: true, lowStockThreshold: 4 });
  });

  it('refuses automatic delivery for a service that is not Wise, and a threshold that is not a whole number of 0 or more', () => {
    const save = vi.fn<(body: ServiceBody) => Promise<void>>();
    render(<ServiceModal service={null} save={save} onClose={vi.fn()} />);
    fillRequired('vps');
    fireEvent.click(screen.getByLabelText(AUTO));
    type(THRESHOLD, '-2');
    submit();
    expect(screen.getByText(/only a service of the Wise category can deliver automatically/)).toBeTruthy();
    expect(screen.getByText('Low-stock threshold must be 0 or more')).toBeTruthy();
    expect(screen.getByLabelText(THRESHOLD).getAttribute('aria-invalid')).toBe('true');
    type(THRESHOLD, '2.5');
    submit();
    expect(screen.getByText('Low-stock threshold must be a whole number')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('shows the service’s own settings when editing', () => {
    const service: Service = {
      id: crypto.randomUUID(),
      title: 'Wise Business',
      description: 'Verified',
      category: 'wise',
      features: [],
      popular: false,
      image: 'https://img.example/w.png',
      price: '50',
      deliveryTime: 'instant',
      paymentMethods: [],
      autoDeliver: true,
      lowStockThreshold: 7,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      version: 3,
    };
    render(<ServiceModal service={service} save={vi.fn()} onClose={vi.fn()} />);
    expect((screen.getByLabelText(AUTO) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(THRESHOLD) as HTMLInputElement).value).toBe('7');
  });
});
