import type { Service } from '../../../../edge-api/src/contract.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, ApiRequestError, unwrap } from '../../lib/api-client.ts';
import type { ServiceBody } from './service-form.ts';

/** The answer goes on the device at once, and a sync brings in whatever else changed. */
async function keepLocally(service: Service) {
  await getPublicDb().services.put(service);
  requestSync().catch((error: unknown) => console.warn('Sync after a service change failed', error));
}

/** `id` is made by the client when the form opens, so a repeated submit never creates a second service. */
export async function createService(id: string, body: ServiceBody): Promise<Service> {
  const service = await unwrap(api.services.$post({ json: { id, ...body } }));
  await keepLocally(service);
  return service;
}

/** Sends the version the admin edited: 409 when someone changed the service meanwhile. */
export async function updateService(id: string, version: number, body: ServiceBody): Promise<Service> {
  const service = await unwrap(api.services[':id'].$put({ param: { id }, json: { ...body, version } }));
  await keepLocally(service);
  return service;
}

export async function deleteService(id: string): Promise<void> {
  await unwrap(api.services[':id'].$delete({ param: { id } }));
  await getPublicDb().services.delete(id);
  requestSync().catch((error: unknown) => console.warn('Sync after a service delete failed', error));
}

export const isVersionConflict = (error: unknown) => error instanceof ApiRequestError && error.status === 409;
