import { Hono } from 'hono';
import { openApiDocument } from '../openapi.ts';

/** GET /api/openapi.json (decision 175): public, the same for everyone; built once per origin. */
export function openApiRoutes() {
  const built = new Map<string, string>();
  return new Hono().get('/', (c) => {
    const origin = new URL(c.req.url).origin;
    let json = built.get(origin);
    if (json === undefined) {
      json = JSON.stringify(openApiDocument(origin));
      if (built.size < 8) built.set(origin, json);
    }
    return c.body(json, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' });
  });
}
