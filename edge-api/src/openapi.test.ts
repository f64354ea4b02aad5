import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, remoteApi, type ApiHarness } from './testing/api-harness.ts';
import { placeOrderBody } from './contract/order-requests.ts';

type Json = Record<string, unknown>;

let api: ApiHarness;
let doc: Json & { openapi: string; paths: Record<string, Record<string, Json>>; components: Json };

beforeAll(async () => {
  api = await createApiHarness();
  const answer = await api.call<typeof doc>('GET', '/api/openapi.json');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('application/json');
  doc = answer.body;
});

afterAll(async () => {
  await api?.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every $ref in `value`, with where it was found. */
function refs(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refs(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Json).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [[inner, at] as [string, string]] : refs(inner, `${at}/${key}`),
  );
}

function resolve(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

describe('GET /api/openapi.json', () => {
  // The route table is the code's, the same in both entries: read in this process (the run against a worker has no test database for it).
  it.skipIf(remoteApi !== undefined)('lists every route of the public API, and nothing that is not one', () => {
    // The route table of the app itself (in-process, as the harness is whenever this runs): every /api/v1 handler, middleware left out.
    if (api.mode !== 'in-process') throw new Error('the route table is read in this process');
    const table = new Set(
      (api.app.routes as { method: string; path: string }[])
        .filter((route) => route.path.startsWith('/api/v1/') && route.method !== 'ALL')
        .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m} ${path}`),
      ),
    );
    expect([...documented].sort()).toEqual([...table].sort());
    expect(table.size).toBeGreaterThanOrEqual(9);
  });

  it('has the structure of an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect((doc.servers as { url: string }[])[0]!.url).toMatch(/^https?:\/\//);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS).toContain(method);
        const responses = op.responses as Record<string, unknown>;
        expect(Object.keys(responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const status of Object.keys(responses)) expect(status).toMatch(/^[1-5](\d\d|XX)$|^default$/);
        const parameters = (op.parameters ?? []) as { name: string; in: string; required?: boolean; schema?: unknown }[];
        for (const parameter of parameters) {
          expect(['query', 'header', 'path', 'cookie']).toContain(parameter.in);
          expect(parameter.schema).toBeTypeOf('object');
          if (parameter.in === 'path') expect(parameter.required).toBe(true);
        }
        // Each templated segment is declared as a path parameter, and only those.
        expect(
          parameters
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort(),
        ).toEqual([...templated].sort());
        for (const requirement of (op.security ?? []) as Json[])
          for (const name of Object.keys(requirement)) expect(resolve(`#/components/securitySchemes/${name}`)).toBeDefined();
        if (op.requestBody) expect((op.requestBody as { content: Json }).content['application/json']).toBeDefined();
      }
    }
    for (const [target, at] of refs(doc)) expect(resolve(target), `${target} at ${at}`).toBeDefined();
  });

  it('is built from the schemas the routes validate with', () => {
    const place = doc.paths['/api/v1/orders']!.post!.requestBody as { content: { 'application/json': { schema: { properties: Json; required: string[] } } } };
    const body = place.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(placeOrderBody.shape).sort());
    expect(body.required).toEqual(['productId']);
    const hook = doc.paths['/api/v1/webhooks']!.post!.requestBody as {
      content: { 'application/json': { schema: { properties: { events: { items: { enum: string[] } } } } } };
    };
    expect(hook.content['application/json'].schema.properties.events.items.enum).toEqual(['order.paid', 'order.delivered', 'order.replaced', 'order.refunded']);
  });
});
