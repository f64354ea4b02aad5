import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { forgetPublicOnDevice, keepPublicOnDevice } from '../../db/device-copy.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { hasCode } from '../../lib/app-error.ts';
import type { ServiceBody } from './service-form.ts';

/** The answer goes on the device at once, and a sync brings in whatever else changed. */
async function keepLocally(service: Service) {
  await keepPublicOnDevice({ services: [service] });
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
  await forgetPublicOnDevice({ services: [id] });
  requestSync().catch((error: unknown) => console.warn('Sync after a service delete failed', error));
}

export const isVersionConflict = (error: unknown) => hasCode(error, 'conflict');
