/**
 * Stock kept for one service (issue 16 item 4, decision 072): items of the service's kind (an account, a
 * server login, lines), apart from the Wise stock pool, whose screens and API stay as they are.
 */
import { z } from 'zod';
import { deliveryLines, serverLogin } from './deliveries.ts';
import { expectedVersion, requiredEmail, requiredText, text, uuid, wisePassword } from './fields.ts';

export type ServiceStockKind = 'account' | 'server' | 'lines';
export const serviceStockKinds: readonly ServiceStockKind[] = ['account', 'server', 'lines'];
export type ServiceStockStatus = 'available' | 'sold' | 'disabled';

/** An account kept in a service's stock: like a Wise stock's email, password and name. */
export const stockAccount = z.object({ email: requiredEmail, password: wisePassword, name: requiredText(200) }).strict();

/** POST /api/service-stocks: one item, of the service's kind (exactly one of account, server, lines). */
export const newServiceStockBody = z
  .object({
    id: uuid.optional(),
    serviceId: uuid,
    account: stockAccount.optional(),
    server: serverLogin.optional(),
    lines: deliveryLines.optional(),
    notes: text(2000).optional(),
    /** Add it although its email or a secret is already in stock or delivered (409 duplicate_credentials without). */
    overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()
  .refine((body) => [body.account, body.server, body.lines].filter((value) => value !== undefined).length === 1, {
    path: ['account'],
    message: 'send exactly one of account, server or lines',
  });
export type NewServiceStock = z.infer<typeof newServiceStockBody>;

/** GET /api/service-stocks?serviceId= */
export const serviceStockListQuery = z.object({ serviceId: uuid });

/** POST /api/service-stocks/{id}/withdraw: an available item leaves the shelf (status disabled). */
export const withdrawServiceStockBody = z.object({ version: expectedVersion }).strict();

/** An item as staff get it. An admin gets the secret (as Wise stock passwords); a moderator gets it masked. */
export interface ServiceStock {
  id: string;
  serviceId: string;
  kind: ServiceStockKind;
  /** account */
  email?: string;
  name?: string;
  /** server */
  host?: string;
  port?: number;
  user?: string;
  /** The password (account, server); '' when masked. */
  password?: string;
  /** lines: how many, and (admin) the lines themselves. */
  lineCount?: number;
  lines?: string[];
  secretMasked?: true;
  secretUnreadable?: true;
  status: ServiceStockStatus;
  soldTo: string | null;
  orderId: string | null;
  notes: string;
  faultyAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** What a list shows of an item: never its secret. */
export function serviceStockLabel(item: Pick<ServiceStock, 'kind' | 'email' | 'name' | 'host' | 'port' | 'user' | 'lineCount'>): string {
  if (item.kind === 'account') return `${item.name ?? ''} <${item.email ?? ''}>`;
  if (item.kind === 'server') return `${item.user ?? ''}@${item.host ?? ''}:${item.port ?? ''}`;
  return `${item.lineCount ?? 0} ${item.lineCount === 1 ? 'line' : 'lines'}`;
}
