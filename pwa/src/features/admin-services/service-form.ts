import type { Service } from '../../../../edge-api/src/contract.ts';

/** The choices of a select: the known ids, plus the current value when it is something else (older data). */
export function choicesWith(ids: readonly string[], current: string): string[] {
  return current && !ids.includes(current) ? [...ids, current] : [...ids];
}

/** The body of POST/PUT /api/services: a service's own fields. */
export type ServiceBody = Omit<Service, 'id' | 'createdAt' | 'updatedAt' | 'version'>;

/** What the service forms edit: the same fields, but lists keep their blank rows until saved. */
export type ServiceFormValues = ServiceBody;

export type ServiceField = 'title' | 'category' | 'description' | 'price' | 'deliveryTime' | 'image';
export type ServiceFormErrors = Partial<Record<ServiceField, string>>;

/** The dashboard modal in create mode: every field empty, one empty entry in each list. */
export function emptyModalValues(): ServiceFormValues {
  return { title: '', category: '', description: '', price: '', deliveryTime: '', image: '', features: [''], paymentMethods: [''], popular: false };
}

/** The modal in edit mode: the service's values, and still one (empty) entry in a list that has none. */
export function valuesFromService(service: Service): ServiceFormValues {
  return {
    title: service.title,
    category: service.category,
    description: service.description,
    price: service.price,
    deliveryTime: service.deliveryTime,
    image: service.image,
    features: service.features.length > 0 ? [...service.features] : [''],
    paymentMethods: service.paymentMethods.length > 0 ? [...service.paymentMethods] : [''],
    popular: service.popular,
  };
}

/** The Add New Service form: category documents, three empty features, popular off, the rest empty. */
export function emptyAddFormValues(): ServiceFormValues {
  return { title: '', category: 'documents', description: '', price: '', deliveryTime: '', image: '', features: ['', '', ''], paymentMethods: [], popular: false };
}

/**
 * An image address the modal accepts: an absolute http(s) URL, an inline data:image URL, or a path on this
 * site (what the embedded server answers for uploaded images, e.g. /files/service-images/x.png).
 */
export function isImageUrl(value: string): boolean {
  const text = value.trim();
  if (/^\/(?!\/)\S*$/.test(text)) return true;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' || (url.protocol === 'data:' && /^data:image\//i.test(text));
  } catch {
    return false;
  }
}

const fieldLabels: Record<ServiceField, string> = {
  title: 'Title',
  category: 'Category',
  description: 'Description',
  price: 'Price',
  deliveryTime: 'Delivery Time',
  image: 'Image URL',
};

function requireFields(values: ServiceFormValues, fields: readonly ServiceField[], labels: Partial<Record<ServiceField, string>>): ServiceFormErrors {
  const errors: ServiceFormErrors = {};
  for (const field of fields) {
    if (!values[field].trim()) errors[field] = `${labels[field] ?? fieldLabels[field]} is required`;
  }
  return errors;
}

/** Spec section 5 (service modal): title, category, description, price, deliveryTime and image required; image a URL. */
export function validateModal(values: ServiceFormValues): ServiceFormErrors {
  const errors = requireFields(values, ['title', 'category', 'description', 'price', 'deliveryTime', 'image'], {});
  if (!errors.image && !isImageUrl(values.image)) errors.image = 'Image URL must be a valid URL (https://...)';
  return errors;
}

/** Spec section 5 (storefront form): title, description, category, price and delivery time required. */
export function validateAddForm(values: ServiceFormValues): ServiceFormErrors {
  return requireFields(values, ['title', 'description', 'category', 'price', 'deliveryTime'], { title: 'Service Title' });
}

const withoutBlanks = (items: readonly string[]) => items.map((item) => item.trim()).filter((item) => item.length > 0);

/** What is sent: text trimmed, blank features and payment methods dropped. */
export function toServiceBody(values: ServiceFormValues): ServiceBody {
  return {
    title: values.title.trim(),
    category: values.category.trim(),
    description: values.description.trim(),
    price: values.price.trim(),
    deliveryTime: values.deliveryTime.trim(),
    image: values.image.trim(),
    features: withoutBlanks(values.features),
    paymentMethods: [...new Set(withoutBlanks(values.paymentMethods))],
    popular: values.popular,
  };
}

/** The category filter's choices: the distinct categories of the services, alphabetically. */
export const distinctCategories = (services: readonly Pick<Service, 'category'>[]) =>
  [...new Set(services.map((service) => service.category))].filter(Boolean).sort((a, b) => a.localeCompare(b));

/** Removes a list row, but never the last one. */
export function removeRow(items: readonly string[], index: number): string[] {
  if (items.length <= 1) return [...items];
  return items.filter((_, i) => i !== index);
}
