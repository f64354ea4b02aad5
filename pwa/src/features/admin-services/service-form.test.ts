import { describe, expect, it } from 'vitest';
import { isImageAddress, type Service } from '../../../../edge-api/src/contract/services.ts';
import {
  distinctCategories,
  emptyAddFormValues,
  emptyModalValues,
  removeRow,
  toServiceBody,
  validateAddForm,
  validateModal,
  valuesFromService,
  type ServiceFormValues,
} from './service-form.ts';

const filled: ServiceFormValues = {
  title: 'UK Wise Account',
  category: 'wise',
  description: 'Verified personal account',
  price: '45',
  deliveryTime: 'instant',
  image: 'https://img.example/wise.png',
  features: ['Full KYC'],
  paymentMethods: ['binance'],
  popular: true,
};

describe('service modal validation', () => {
  it('requires title, category, description, price, delivery time and image', () => {
    const errors = validateModal(emptyModalValues());
    expect(Object.keys(errors).sort()).toEqual(['category', 'deliveryTime', 'description', 'image', 'price', 'title']);
    expect(validateModal({ ...filled, title: '   ' })).toEqual({ title: 'Title is required' });
    expect(validateModal(filled)).toEqual({});
  });

  it('requires the image to be a URL', () => {
    expect(validateModal({ ...filled, image: 'just a picture' }).image).toMatch(/valid URL/);
    expect(validateModal({ ...filled, image: 'javascript:alert(1)' }).image).toMatch(/valid URL/);
    expect(validateModal({ ...filled, image: '//evil.test/x.png' }).image).toMatch(/valid URL/);
    expect(isImageAddress('http://img.example/a.jpg')).toBe(true);
    // Uploaded images on the embedded server, and the demo pictures (files of the site).
    expect(isImageAddress('/files/service-images/1b9d.png')).toBe(true);
    expect(isImageAddress('/demo/vps.svg')).toBe(true);
    // Never inline: every order would carry a copy to every device (decision 051).
    expect(validateModal({ ...filled, image: 'data:image/svg+xml;charset=utf-8,%3Csvg%3E' }).image).toMatch(/data: images are not kept/);
  });

  it('does not require features or payment methods', () => {
    expect(validateModal({ ...filled, features: [''], paymentMethods: [''] })).toEqual({});
  });
});

describe('service body', () => {
  it('drops blank features and payment methods and trims the text', () => {
    const body = toServiceBody({
      ...filled,
      title: '  UK Wise Account ',
      features: ['', 'Full KYC', '   ', ' Debit card '],
      paymentMethods: ['', 'binance', 'wise', 'binance'],
    });
    expect(body).toEqual({ ...filled, features: ['Full KYC', 'Debit card'], paymentMethods: ['binance', 'wise'], warrantyDays: 0 });
    expect(toServiceBody(emptyModalValues())).toMatchObject({ features: [], paymentMethods: [] });
  });
});

describe('form starting values', () => {
  it('starts the modal with one empty entry in each list', () => {
    expect(emptyModalValues()).toMatchObject({ features: [''], paymentMethods: [''], popular: false, title: '' });
  });

  it('starts the add form with category documents, three empty features and popular off', () => {
    expect(emptyAddFormValues()).toMatchObject({ category: 'documents', features: ['', '', ''], paymentMethods: [], popular: false, title: '', price: '' });
  });

  it('edits a service with its values, keeping one empty entry for an empty list', () => {
    const service = { ...filled, id: 'x', features: [], paymentMethods: ['wise'], createdAt: '', updatedAt: '', version: 3 } as Service;
    expect(valuesFromService(service)).toMatchObject({ title: 'UK Wise Account', features: [''], paymentMethods: ['wise'], popular: true });
  });

  it('never removes the last row of a list', () => {
    expect(removeRow(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(removeRow(['only'], 0)).toEqual(['only']);
  });

  it('requires title, description, category, price and delivery time on the add form, not an image', () => {
    expect(Object.keys(validateAddForm(emptyAddFormValues())).sort()).toEqual(['deliveryTime', 'description', 'price', 'title']);
    expect(validateAddForm({ ...filled, image: '' })).toEqual({});
  });
});

describe('category filter', () => {
  const services = [
    { title: 'UK Wise Account', description: 'Verified', category: 'wise' },
    { title: 'Windows VPS', description: 'Fast server with a WISE transfer option', category: 'vps' },
    { title: 'Bank Statement', description: 'Editable PSD', category: 'documents' },
  ];

  it('offers each category found once', () => {
    expect(distinctCategories([...services, { category: 'wise' }])).toEqual(['documents', 'vps', 'wise']);
  });
});
