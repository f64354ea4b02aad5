import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createLocalJWKSet, type JWK } from 'jose';
import pg from 'pg';
import { createApp } from '../edge-api/src/app.ts';
import { createTokenVerifier } from '../edge-api/src/auth/verifier.ts';
import { createDiskBlobStore } from '../edge-api/src/blobs/disk-store.ts';
import { openDatabase } from '../edge-api/src/db/connect.ts';
import type { ServiceRow } from '../edge-api/src/db/schema.ts';
import { silentLogger } from '../edge-api/src/lib/logger.ts';
import { createSecrets } from '../edge-api/src/lib/secrets.ts';
import { toService } from '../edge-api/src/presenters/services.ts';

// One server per process, so the load generator (the parent) never shares an event loop with it.
// `node bench/serve-services.ts app|baseline` with BENCH_DATABASE_URL and BENCH_SCHEMA (and, for the app,
// BENCH_PUBLIC_JWK: the key its tokens are signed with, issuer 'bench'); prints its port.
const [mode] = process.argv.slice(2);
const url = process.env.BENCH_DATABASE_URL!;
const schema = process.env.BENCH_SCHEMA!;
const POOL_SIZE = 10;

if (mode === 'baseline') {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, options: `-c search_path=${schema},public` });
  const server = createServer(async (_req, res) => {
    const { rows } = await pool.query('select * from services where deleted_at is null order by created_at asc');
    const body = JSON.stringify((rows as ServiceRow[]).map(toService));
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(typeof address === 'object' && address ? address.port : 0);
  });
} else {
  const db = openDatabase({ databaseUrl: url, searchPath: `${schema},public`, maxConnections: POOL_SIZE });
  const app = createApp({
    db,
    verifyToken: createTokenVerifier({ issuer: 'bench', keys: createLocalJWKSet({ keys: [JSON.parse(process.env.BENCH_PUBLIC_JWK!) as JWK] }) }),
    // Its sessions are never ended: the bench measures the routes, not the auth server.
    sessionAlive: async () => true,
    deleteAuthUser: async () => {},
    emailConfirmed: async () => true,
    blobs: await createDiskBlobStore(mkdtempSync(join(tmpdir(), 'bench-files-')), crypto.getRandomValues(new Uint8Array(32))),
    secrets: await createSecrets(crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))),
    clock: () => new Date(),
    config: { adminEmails: [], supabaseUrl: '', supabaseAnonKey: 'bench', allowedOrigins: [] },
    logger: silentLogger,
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(info.port));
  process.once('SIGTERM', () => server.close());
}
