import type { ZodType } from 'zod';
import { AUTO_DELIVER_ACCOUNTS_ONLY, autoDeliverProblem, serviceBody, serviceImage } from '../../../../edge-api/src/contract/service-requests.ts';
import type { DeliveryKind } from '../../../../edge-api/src/contract/deliveries.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { categoryKey } from '../../lib/catalog.ts';
import { checkWith } from '../../lib/form-problems.ts';

/** The choices of a select: the known ids, plus the current value when it is something else (older data). */
export function choicesWith(ids: readonly string[], current: string): string[] {
  return current && !ids.includes(current) ? [...ids, current] : [...ids];
}

/** The body of POST/PUT /api/services: a service's own fields. */
export type ServiceBody = Omit<Service, 'id' | 'createdAt' | 'updatedAt' | 'version'>;

/**
 * What the service forms edit: the same fields, but lists keep their blank rows until saved, and the
 * low-stock threshold is the text typed ('' for the shop's threshold).
 */
export type ServiceFormValues = Omit<ServiceBody, 'autoDeliver' | 'lowStockThreshold' | 'deliveryKind'> & {
  autoDeliver?: boolean;
  lowStockThreshold?: string;
  deliveryKind?: string;
};

export type ServiceField = 'title' | 'category' | 'description' | 'price' | 'deliveryTime' | 'image' | 'lowStockThreshold' | 'warrantyDays' | 'deliveryKind';
export type ServiceFormErrors = Partial<Record<ServiceField, string>>;

/** The dashboard modal in create mode: every field empty, one empty entry in each list. */
export function emptyModalValues(): ServiceFormValues {
  return {
    title: '',
    category: '',
    description: '',
    price: '',
    deliveryTime: '',
    image: '',
    features: [''],
    paymentMethods: [''],
    popular: false,
    autoDeliver: false,
    lowStockThreshold: '',
    warrantyDays: 0,
    deliveryKind: 'account',
  };
}

/** The modal in edit mode: the service's values, and still one (empty) entry in a list that has none. */
export function valuesFromService(service: Service): ServiceFormValues {
  return {
    title: service.title,
    // An older spelling ('Vps') becomes the listed id, so the select shows it once and a save tidies it.
    category: categoryKey(service.category),
    description: service.description,
    price: service.price,
    deliveryTime: service.deliveryTime,
    image: service.image,
    features: service.features.length > 0 ? [...service.features] : [''],
    paymentMethods: service.paymentMethods.length > 0 ? [...service.paymentMethods] : [''],
    popular: service.popular,
    autoDeliver: service.autoDeliver ?? false,
    lowStockThreshold: service.lowStockThreshold == null ? '' : String(service.lowStockThreshold),
    needsDetails: service.needsDetails ?? false,
    detailsHint: service.detailsHint ?? '',
    warrantyDays: service.warrantyDays ?? 0,
    deliveryKind: service.deliveryKind ?? 'account',
  };
}

/** The Add New Service form: category documents, three empty features, popular off, the rest empty. */
export function emptyAddFormValues(): ServiceFormValues {
  return {
    title: '',
    category: 'documents',
    description: '',
    price: '',
    deliveryTime: '',
    image: '',
    features: ['', '', ''],
    paymentMethods: [],
    popular: false,
    warrantyDays: 0,
    autoDeliver: false,
    lowStockThreshold: '',
    deliveryKind: 'account',
  };
}

const fieldLabels: Record<ServiceField, string> = {
  title: 'Title',
  category: 'Category',
  description: 'Description',
  price: 'Price',
  deliveryTime: 'Delivery Time',
  image: 'Image URL',
  lowStockThreshold: 'Low-stock threshold',
  warrantyDays: 'Warranty (days)',
  deliveryKind: 'Delivers',
};

/** The modal also requires a picture (spec section 5); the API takes a service without one. */
const modalRules = serviceBody.extend({ image: serviceImage.refine((value) => value !== '', { message: 'is required' }) });

/** The problems the contract's rules find in the form's fields, each as "{label} {problem}". */
function problemsOf(
  schema: ZodType,
  values: ServiceFormValues,
  fields: readonly ServiceField[],
  labels: Partial<Record<ServiceField, string>>,
): ServiceFormErrors {
  const found = checkWith(schema, toServiceBody(values));
  const errors: ServiceFormErrors = {};
  for (const field of fields) if (found[field]) errors[field] = `${labels[field] ?? fieldLabels[field]} ${found[field]}`;
  return errors;
}

/** Automatic delivery draws on stock (decision 061): said under the field to change, on both forms. */
function withAutoDeliverProblem(errors: ServiceFormErrors, values: ServiceFormValues, keepsStock: boolean): ServiceFormErrors {
  const auto = autoDeliverProblem(toServiceBody(values), keepsStock);
  if (auto === AUTO_DELIVER_ACCOUNTS_ONLY) errors.deliveryKind = auto;
  else if (auto && !errors.category) errors.category = auto;
  return errors;
}

/** Spec section 5 (service modal): title, category, description, price, deliveryTime and image required; image a URL. */
export function validateModal(values: ServiceFormValues, keepsStock = false): ServiceFormErrors {
  const fields: ServiceField[] = ['title', 'category', 'description', 'price', 'deliveryTime', 'image', 'lowStockThreshold', 'warrantyDays'];
  return withAutoDeliverProblem(problemsOf(modalRules, values, fields, {}), values, keepsStock);
}

/** Spec section 5 (storefront form): title, description, category, price and delivery time required; a new service keeps no stock yet. */
export function validateAddForm(values: ServiceFormValues): ServiceFormErrors {
  const fields: ServiceField[] = ['title', 'description', 'category', 'price', 'deliveryTime', 'warrantyDays', 'lowStockThreshold'];
  return withAutoDeliverProblem(problemsOf(serviceBody, values, fields, { title: 'Service Title' }), values, false);
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
    // '' is the shop's threshold, other text is checked as a number.
    ...(values.autoDeliver !== undefined && { autoDeliver: values.autoDeliver }),
    ...(values.lowStockThreshold !== undefined && {
      lowStockThreshold: values.lowStockThreshold.trim() === '' ? null : Number(values.lowStockThreshold.trim()),
    }),
    ...(values.needsDetails !== undefined
      ? { needsDetails: values.needsDetails, detailsHint: values.needsDetails ? (values.detailsHint ?? '').trim() : '' }
      : {}),
    warrantyDays: values.warrantyDays ?? 0,
    // Left out (decision 069), the service keeps what it delivers.
    ...(values.deliveryKind !== undefined && { deliveryKind: values.deliveryKind as DeliveryKind }),
  };
}

/** The category filter's choices: the distinct categories of the services, alphabetically. */
/** The category filter's choices: each category once (by its key), whatever its spellings. */
export const distinctCategories = (services: readonly Pick<Service, 'category'>[]) =>
  [...new Set(services.map((service) => categoryKey(service.category)))].filter(Boolean).sort((a, b) => a.localeCompare(b));

/** Removes a list row, but never the last one. */
export function removeRow(items: readonly string[], index: number): string[] {
  if (items.length <= 1) return [...items];
  return items.filter((_, i) => i !== index);
}
