/**
 * Every route of the API with who may call it and a request that breaks its input rules: the table the
 * shared security tests (app.test.ts) run each route through, after Unkey's common tests. A route added to
 * createApp without a row here fails those tests.
 */

/**
 * Who may call a route; everyone below is refused: 401 without a token, 403 with one.
 * - anyone: no token needed
 * - account: a verified token, with or without a user record (registration saves the record)
 * - user: a user record of any role
 * - staff: moderators and admins
 * - admin: admins
 * - key: an API key only (decision 173): every session token is refused with 401, like no token. Its
 *   scopes and bad input are tested in routes/public-api.test.ts and routes/public-webhooks.test.ts.
 */
export type Access = 'anyone' | 'account' | 'user' | 'staff' | 'admin' | 'key';

/** A request a route must refuse with 400, changing nothing. `path` replaces the route's path when given. */
export interface BadInput {
  path?: string;
  query?: string;
  json?: unknown;
  /** A raw body (with content-type application/json unless `type` says otherwise). */
  body?: string;
  type?: string;
}

export interface RouteRow {
  access: Access;
  /** Requests that break the route's input rules; empty for routes that read no input. */
  badInputs: BadInput[];
}

const notJson: BadInput = { body: '{"unfinished": ' };
// A staff list's page (decision 234): a limit out of range, a cursor this API did not answer.
const pageQueryBadInputs: BadInput[] = [{ query: 'limit=0' }, { query: 'limit=501' }, { query: 'cursor=bm90LWEtY3Vyc29y' }, { query: 'cursor=a%20b' }];
// The same beside a service's id, for a service's lists (decision 242).
const withService = (inputs: BadInput[]): BadInput[] => inputs.map((input) => ({ query: `serviceId=00000000-0000-4000-8000-000000000000&${input.query}` }));
const notUuid = (path: string): BadInput => ({ path });

export const routeTable: Record<string, RouteRow> = {
  'GET /api/config': { access: 'anyone', badInputs: [] },
  'GET /api/services': { access: 'anyone', badInputs: [] },
  'GET /api/services/:id': { access: 'anyone', badInputs: [notUuid('/api/services/not-a-uuid')] },
  'POST /api/services': {
    access: 'admin',
    badInputs: [
      notJson,
      { json: {} },
      { json: { title: 'VPS', description: 'x', category: 'vps', price: '5', deliveryTime: '1h', image: 'javascript:alert(1)' } },
    ],
  },
  'PUT /api/services/:id': { access: 'admin', badInputs: [notUuid('/api/services/not-a-uuid'), { json: { title: '' } }] },
  'DELETE /api/services/:id': { access: 'admin', badInputs: [notUuid('/api/services/not-a-uuid')] },

  'POST /api/users': { access: 'account', badInputs: [notJson, { json: { email: 'not an email' } }] },
  'GET /api/users': { access: 'staff', badInputs: pageQueryBadInputs },
  'GET /api/users/:uid': { access: 'user', badInputs: [notUuid('/api/users/not-a-uuid')] },
  'PUT /api/users/:uid': {
    access: 'user',
    badInputs: [
      notUuid('/api/users/not-a-uuid'),
      notJson,
      { json: { displayName: '', mobile: '017' } },
      { json: { displayName: 'Ana', mobile: '0'.repeat(16) } },
    ],
  },
  'PUT /api/users/:uid/role': { access: 'admin', badInputs: [notUuid('/api/users/not-a-uuid/role'), { json: { userRole: 'owner' } }] },
  'DELETE /api/users/:uid': { access: 'admin', badInputs: [notUuid('/api/users/not-a-uuid')] },

  'POST /api/orders': { access: 'user', badInputs: [notJson, { json: {} }, { json: { productId: 'not-a-uuid' } }] },
  'POST /api/orders/:id/cancel': { access: 'user', badInputs: [notUuid('/api/orders/not-a-uuid/cancel')] },
  'PUT /api/orders/:id/payment-proof': {
    access: 'user',
    badInputs: [notUuid('/api/orders/not-a-uuid/payment-proof'), notJson, { json: {} }, { json: { screenshot: 'stock-images/a.png' } }],
  },
  'POST /api/orders/:id/report': {
    access: 'user',
    badInputs: [
      notUuid('/api/orders/not-a-uuid/report'),
      notJson,
      { json: {} },
      { json: { reason: 'bored' } },
      { json: { reason: 'other', note: ' ' } },
      { json: { reason: 'locked', image: 'stock-images/x.png' } },
    ],
  },
  'GET /api/vaults': { access: 'user', badInputs: [] },
  'POST /api/vaults': {
    access: 'user',
    badInputs: [notJson, { json: {} }, { json: { id: 'not-a-uuid', publicKey: {}, pinSalt: 'x', pinIterations: 1, verifier: 'x' } }],
  },
  'POST /api/vaults/:id/unlock': { access: 'user', badInputs: [notUuid('/api/vaults/not-a-uuid/unlock'), notJson, { json: { verifier: 'short' } }] },
  'DELETE /api/vaults/:id': { access: 'user', badInputs: [notUuid('/api/vaults/not-a-uuid')] },
  'GET /api/orders/:id/file': { access: 'user', badInputs: [notUuid('/api/orders/not-a-uuid/file')] },
  'POST /api/orders/:id/reveals': {
    access: 'user',
    badInputs: [
      notUuid('/api/orders/not-a-uuid/reveals'),
      notJson,
      { json: {} },
      { json: { deviceId: 'has spaces', deviceLabel: 'Chrome on Android', revealedAt: '2026-11-24T01:00:00Z' } },
      { json: { deviceId: 'd1', deviceLabel: '  ', revealedAt: '2026-11-24T01:00:00Z' } },
      { json: { deviceId: 'd1', deviceLabel: 'Chrome on Android', revealedAt: 'yesterday' } },
    ],
  },
  'POST /api/orders/:id/payment': {
    access: 'user',
    badInputs: [notUuid('/api/orders/not-a-uuid/payment'), notJson, { json: {} }, { json: { rail: 'paypal' } }],
  },
  'POST /api/orders/:id/payment/check': { access: 'user', badInputs: [notUuid('/api/orders/not-a-uuid/payment/check')] },
  'GET /api/orders/:id/payment-events': { access: 'staff', badInputs: [notUuid('/api/orders/not-a-uuid/payment-events')] },
  'GET /api/admin/payments': { access: 'admin', badInputs: [] },
  'PUT /api/admin/payments': {
    access: 'admin',
    badInputs: [notJson, { json: {} }, { json: { expiryMinutes: 1, bdtPerUsd: null } }, { json: { expiryMinutes: 30, bdtPerUsd: '-3' } }],
  },
  'PUT /api/admin/payments/:rail': {
    access: 'admin',
    badInputs: [
      { path: '/api/admin/payments/paypal', json: { enabled: false } },
      notJson,
      { json: {} },
      { json: { enabled: true, settings: { address: 'not-a-tron-address' } } },
      { json: { enabled: true } },
    ],
  },
  'POST /api/admin/payments/reconcile': { access: 'staff', badInputs: [] },
  // A rail proves itself by its signature (or the shop asks the rail): nobody signs in, and a forgery is a 400.
  'POST /api/payments/binance-pay/webhook': {
    access: 'anyone',
    badInputs: [notJson, { json: {} }, { json: { bizType: 'PAY', bizIdStr: '1', bizStatus: 'PAY_SUCCESS', data: '{}' } }],
  },
  'GET /api/payments/rails': { access: 'anyone', badInputs: [] },
  'GET /api/admin/pricing/services/:id/tiers': { access: 'admin', badInputs: [notUuid('/api/admin/pricing/services/not-a-uuid/tiers')] },
  'PUT /api/admin/pricing/services/:id/tiers': {
    access: 'admin',
    badInputs: [notUuid('/api/admin/pricing/services/not-a-uuid/tiers'), notJson, { json: {} }, { json: { tiers: [{ minQuantity: 1, unitPrice: '5' }] } }],
  },
  'GET /api/admin/pricing/users/:id': { access: 'admin', badInputs: [notUuid('/api/admin/pricing/users/not-a-uuid')] },
  'PUT /api/admin/pricing/users/:id': {
    access: 'admin',
    badInputs: [notUuid('/api/admin/pricing/users/not-a-uuid'), notJson, { json: {} }, { json: { percentOff: 150, services: [] } }],
  },
  'POST /api/guest-orders': {
    access: 'anyone',
    badInputs: [
      notJson,
      { json: {} },
      { json: { email: 'not an address', productId: 'not-a-uuid' } },
      { json: { email: 'a@example.test', productId: '00000000-0000-4000-8000-000000000000', couponCode: 'OK-CODE' } },
    ],
  },
  'GET /api/guest-orders/:id': { access: 'anyone', badInputs: [notUuid('/api/guest-orders/not-a-uuid')] },
  'POST /api/pricing/quote': {
    access: 'anyone',
    badInputs: [
      notJson,
      { json: {} },
      { json: { productId: 'not-a-uuid', quantity: 2 } },
      { json: { productId: '00000000-0000-4000-8000-000000000000', quantity: 0 } },
    ],
  },
  'POST /api/coupons/quote': { access: 'user', badInputs: [notJson, { json: {} }, { json: { code: 'x', productId: 'not-a-uuid' } }] },
  'GET /api/admin/coupons': { access: 'admin', badInputs: pageQueryBadInputs },
  'POST /api/admin/coupons': {
    access: 'admin',
    badInputs: [notJson, { json: {} }, { json: { code: 'OK-CODE', kind: 'percent', amount: '101' } }, { json: { code: 'OK-CODE', kind: 'gift', amount: '5' } }],
  },
  'PUT /api/admin/coupons/:id': {
    access: 'admin',
    badInputs: [notUuid('/api/admin/coupons/not-a-uuid'), notJson, { json: { code: 'OK-CODE', kind: 'fixed', amount: '0' } }],
  },
  'GET /api/payments/bkash/callback': { access: 'anyone', badInputs: [{ query: '' }, { query: 'paymentID=TR0011X&status=paid' }] },
  'GET /api/orders/user/:userId': {
    access: 'user',
    badInputs: [notUuid('/api/orders/user/not-a-uuid'), { query: 'limit=0' }, { query: 'limit=501' }, { query: 'limit=5&cursor=not*a*cursor' }],
  },

  'GET /api/admin/orders': { access: 'staff', badInputs: [{ query: 'page=0' }, { query: 'limit=7' }, { query: 'status=shipped' }, { query: 'report=closed' }] },
  'POST /api/admin/orders/:id/report/decline': {
    access: 'staff',
    badInputs: [notUuid('/api/admin/orders/not-a-uuid/report/decline'), notJson, { json: {} }, { json: { message: '   ' } }],
  },
  'GET /api/admin/orders/stats': { access: 'staff', badInputs: [] },
  'GET /api/admin/orders/export.csv': { access: 'staff', badInputs: [{ query: 'paymentStatus=free' }] },
  'GET /api/admin/orders/:id': { access: 'staff', badInputs: [notUuid('/api/admin/orders/not-a-uuid')] },
  'PUT /api/admin/orders/:id': {
    access: 'staff',
    badInputs: [
      notUuid('/api/admin/orders/not-a-uuid'),
      notJson,
      { json: {} },
      { json: { orderStatus: 'shipped' } },
      { json: { server: { host: 'a.test', port: 0, user: 'root', password: 'p' } } },
      { json: { lines: [] } },
    ],
  },
  'DELETE /api/admin/orders/:id': { access: 'admin', badInputs: [notUuid('/api/admin/orders/not-a-uuid')] },
  'GET /api/admin/credentials/check': { access: 'staff', badInputs: [{ query: '' }, { query: 'email=a@b.test&excludeOrderId=x' }] },
  'GET /api/admin/audit': { access: 'admin', badInputs: [{ query: '' }, { query: 'entity=orders' }] },

  'GET /api/wise-stocks': { access: 'staff', badInputs: pageQueryBadInputs },
  'GET /api/wise-stocks/check': { access: 'staff', badInputs: [{ query: '' }, { query: `email=${'a'.repeat(321)}` }] },
  'GET /api/wise-stocks/export.csv': { access: 'admin', badInputs: [{ query: 'passwords=yes' }, { query: 'status=lost' }] },
  'GET /api/wise-stocks/:id': { access: 'staff', badInputs: [notUuid('/api/wise-stocks/not-a-uuid')] },
  'POST /api/wise-stocks/:id/reveal': { access: 'staff', badInputs: [notUuid('/api/wise-stocks/not-a-uuid/reveal')] },
  'POST /api/wise-stocks': {
    access: 'admin',
    badInputs: [
      notJson,
      { json: {} },
      {
        json: {
          wiseName: 'A',
          wiseEmail: 'a@b.test',
          wisePassword: 'pw-123456',
          authImage: 'https://img.example/a.jpg',
          userName: 'K',
          overrideDuplicates: 'yes',
        },
      },
    ],
  },
  'PUT /api/wise-stocks/:id': { access: 'admin', badInputs: [notUuid('/api/wise-stocks/not-a-uuid'), { json: {} }, { json: { status: 'lost' } }] },
  'POST /api/wise-stocks/:id/password': {
    access: 'admin',
    badInputs: [notUuid('/api/wise-stocks/not-a-uuid/password'), notJson, { json: {} }, { json: { wisePassword: '' } }],
  },
  'DELETE /api/wise-stocks/:id': { access: 'admin', badInputs: [notUuid('/api/wise-stocks/not-a-uuid')] },

  'GET /api/service-stocks': { access: 'staff', badInputs: [{ query: '' }, { query: 'serviceId=not-a-uuid' }, ...withService(pageQueryBadInputs)] },
  'POST /api/service-stocks': {
    access: 'admin',
    badInputs: [notJson, { json: {} }, { json: { serviceId: '00000000-0000-4000-8000-000000000000', lines: [] } }],
  },
  'POST /api/service-stocks/preview': {
    access: 'admin',
    badInputs: [notJson, { json: {} }, { json: { serviceId: '00000000-0000-4000-8000-000000000000', text: '  ' } }],
  },
  'POST /api/service-stocks/batch': {
    access: 'admin',
    badInputs: [notJson, { json: {} }, { json: { serviceId: '00000000-0000-4000-8000-000000000000', text: 'a', id: 'not-a-uuid' } }],
  },
  'GET /api/service-stocks/export.csv': {
    access: 'admin',
    badInputs: [{ query: '' }, { query: 'serviceId=not-a-uuid' }, { query: 'serviceId=00000000-0000-4000-8000-000000000000&passwords=yes' }],
  },
  'GET /api/service-stocks/batches': { access: 'staff', badInputs: [{ query: '' }, { query: 'serviceId=not-a-uuid' }, ...withService(pageQueryBadInputs)] },
  'POST /api/service-stocks/batches/:id/withdraw': { access: 'admin', badInputs: [notUuid('/api/service-stocks/batches/not-a-uuid/withdraw')] },
  'POST /api/service-stocks/:id/password': {
    access: 'admin',
    badInputs: [notUuid('/api/service-stocks/not-a-uuid/password'), notJson, { json: {} }, { json: { password: '', version: 1 } }],
  },
  'POST /api/service-stocks/:id/withdraw': { access: 'admin', badInputs: [notUuid('/api/service-stocks/not-a-uuid/withdraw'), { json: { version: -1 } }] },
  'GET /api/stock-batches': { access: 'staff', badInputs: pageQueryBadInputs },
  'POST /api/stock-batches/preview': { access: 'admin', badInputs: [notJson, { json: {} }, { json: { text: '   ' } }] },
  'POST /api/stock-batches': { access: 'admin', badInputs: [notJson, { json: { text: 'a@b.test,pw-123456,A' } }, { json: { label: 'x', text: '' } }] },
  'POST /api/stock-batches/:id/withdraw': { access: 'admin', badInputs: [notUuid('/api/stock-batches/not-a-uuid/withdraw')] },
  'GET /api/notifications': { access: 'staff', badInputs: [] },
  'POST /api/notifications/read': { access: 'staff', badInputs: [notJson, { json: {} }, { json: { ids: ['not-a-uuid'] } }, { json: { all: false } }] },

  'GET /api/settings': { access: 'anyone', badInputs: [] },
  'PUT /api/settings': { access: 'admin', badInputs: [notJson, { json: {} }] },
  'POST /api/uploads': { access: 'user', badInputs: [{ json: { file: 'picture.png' } }, { body: 'not a form', type: 'multipart/form-data; boundary=x' }] },
  'GET /api/sync': { access: 'anyone', badInputs: [{ query: 'cursor=-1' }, { query: 'scope=everything' }] },
  'POST /api/push/subscriptions': {
    access: 'user',
    badInputs: [
      notJson,
      { json: {} },
      { json: { endpoint: 'https://push.example.test/x', keys: { p256dh: 'short', auth: 'short' }, deviceId: 'd', deviceLabel: 'l' } },
    ],
  },
  'DELETE /api/push/subscriptions': { access: 'user', badInputs: [notJson, { json: {} }, { json: { endpoint: 'not a url' } }] },
  'POST /api/push/subscriptions/others': { access: 'user', badInputs: [notJson, { json: {} }, { json: { keep: 'not a url' } }] },
  // Support tickets (decision 169): customers their own, staff the queue, admins alone delete.
  'GET /api/tickets': { access: 'user', badInputs: [{ query: 'status=pending' }, { query: 'assignee=someone' }, ...pageQueryBadInputs] },
  'POST /api/tickets': {
    access: 'user',
    badInputs: [
      notJson,
      { json: {} },
      { json: { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: ' ', body: 'Help' } },
      { json: { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: 'Help', body: 'x', images: ['stock-images/a.png'] } },
    ],
  },
  'GET /api/tickets/:id': { access: 'user', badInputs: [notUuid('/api/tickets/not-a-uuid')] },
  'POST /api/tickets/:id/messages': {
    access: 'user',
    badInputs: [notUuid('/api/tickets/not-a-uuid/messages'), notJson, { json: {} }, { json: { id: crypto.randomUUID(), body: '' } }],
  },
  'POST /api/tickets/:id/close': { access: 'user', badInputs: [notUuid('/api/tickets/not-a-uuid/close')] },
  'POST /api/tickets/:id/read': { access: 'user', badInputs: [notUuid('/api/tickets/not-a-uuid/read')] },
  'PUT /api/tickets/:id/assignee': {
    access: 'staff',
    badInputs: [notUuid('/api/tickets/not-a-uuid/assignee'), notJson, { json: {} }, { json: { assigneeId: 'nobody' } }],
  },
  'POST /api/tickets/:id/warranty-report': { access: 'staff', badInputs: [notUuid('/api/tickets/not-a-uuid/warranty-report')] },
  'DELETE /api/tickets/:id': { access: 'admin', badInputs: [notUuid('/api/tickets/not-a-uuid')] },
  'GET /api/admin/api-keys': { access: 'admin', badInputs: pageQueryBadInputs },
  'GET /api/admin/api-keys/webhooks': { access: 'admin', badInputs: [] },
  'POST /api/admin/api-keys/webhooks/deliveries/:id/resend': {
    access: 'admin',
    badInputs: [notUuid('/api/admin/api-keys/webhooks/deliveries/not-a-uuid/resend')],
  },
  'POST /api/admin/api-keys': {
    access: 'admin',
    badInputs: [
      notJson,
      { json: {} },
      { json: { userId: 'not-a-uuid', name: 'x', scopes: ['orders:read'] } },
      { json: { userId: '00000000-0000-4000-8000-000000000000', name: 'x', scopes: [] } },
    ],
  },
  'POST /api/admin/api-keys/:id/revoke': { access: 'admin', badInputs: [notUuid('/api/admin/api-keys/not-a-uuid/revoke')] },
  'GET /api/openapi.json': { access: 'anyone', badInputs: [] },
  'GET /api/v1/services': { access: 'key', badInputs: [] },
  'POST /api/v1/orders': { access: 'key', badInputs: [] },
  'GET /api/v1/orders': { access: 'key', badInputs: [] },
  'GET /api/v1/orders/:id': { access: 'key', badInputs: [] },
  'POST /api/v1/orders/:id/reveals': { access: 'key', badInputs: [] },
  'GET /api/v1/webhooks': { access: 'key', badInputs: [] },
  'POST /api/v1/webhooks': { access: 'key', badInputs: [] },
  'DELETE /api/v1/webhooks/:id': { access: 'key', badInputs: [] },
  'GET /api/v1/webhooks/:id/deliveries': { access: 'key', badInputs: [] },
};
