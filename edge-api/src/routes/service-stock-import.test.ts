import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { ServiceStock, ServiceStockImportPreview, ServiceStockImportResult, ServiceStockImportRow } from '../contract/service-stocks.ts';
import type { Service } from '../contract/services.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 075: many items added to a service's stock at once, previewed first, on the real API and database.
const bench = orderTestBench();

type PreviewAnswer = ServiceStockImportPreview & ErrorBody;
type ImportAnswer = ServiceStockImportResult & ErrorBody & { error: { details?: { rows?: ServiceStockImportRow[] } } };

async function newService(kind: 'server' | 'lines' | 'account' | 'file') {
  const created = await bench.api.call<Service>('POST', '/api/services', {
    user: bench.admin,
    json: { title: `Bulk ${kind} ${random()}`, description: 'A service', category: 'Other', price: '$5', deliveryTime: '1hour', deliveryKind: kind },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

const services = {} as Record<'server' | 'lines' | 'account', string>;
beforeAll(async () => {
  for (const kind of ['server', 'lines', 'account'] as const) services[kind] = await newService(kind);
});

const preview = (json: Record<string, unknown>, user: TestUser = bench.admin) =>
  bench.api.call<PreviewAnswer>('POST', '/api/service-stocks/preview', { user, json });
const importRows = (json: Record<string, unknown>, user: TestUser = bench.admin) =>
  bench.api.call<ImportAnswer>('POST', '/api/service-stocks/batch', { user, json: { id: crypto.randomUUID(), ...json } });
const rowsOf = (serviceId: string) => bench.api.db.selectFrom('service_stocks').selectAll().where('service_id', '=', serviceId).execute();
const list = (serviceId: string) => bench.api.call<ServiceStock[]>('GET', `/api/service-stocks?serviceId=${serviceId}`, { user: bench.admin });
const problemsOf = (rows: ServiceStockImportRow[] | undefined) =>
  (rows ?? []).flatMap((row) => row.problems.map((problem) => `${row.row} ${problem.field}: ${problem.message}`));

describe('a bulk add of each kind', () => {
  it('imports server logins from CSV with a header, sealed, available, in one audit row without a secret', async () => {
    const serviceId = await newService('server');
    const passwords = [`Bulk-a-${random()}`, `Bulk-b-${random()}`, `Bulk-c-${random()}`];
    const text = [
      'host,port,user,password',
      `a${random()}.example.net,22,root,${passwords[0]}`,
      '',
      `10.0.0.${Math.floor(Math.random() * 200)},2222,admin,${passwords[1]}`,
      `b${random()}.example.net;22;ubuntu;${passwords[2]}`.replaceAll(';', ','),
    ].join('\n');

    const seen = await preview({ serviceId, text });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    expect(seen.body.counts).toEqual({ ok: 3, duplicates: 0, invalid: 0 });
    expect(seen.body.rows.map((row) => row.row)).toEqual([2, 4, 5]);
    expect(JSON.stringify(seen.body)).not.toContain(passwords[0]);
    expect(await rowsOf(serviceId)).toHaveLength(0);

    const id = crypto.randomUUID();
    const done = await importRows({ id, serviceId, text });
    expect(done.status).toBe(201);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.body).toMatchObject({ id, serviceId, kind: 'server', imported: 3, overrodeDuplicates: false });
    const listed = await list(serviceId);
    expect(listed.body.map((item) => item.password).sort()).toEqual([...passwords].sort());
    expect(listed.body.every((item) => item.status === 'available' && item.kind === 'server')).toBe(true);
    expect(listed.body.map((item) => item.port).sort()).toEqual([22, 22, 2222]);
    for (const row of await rowsOf(serviceId)) for (const password of passwords) expect(JSON.stringify(row)).not.toContain(password);

    const audit = await bench.api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'service_stock.import', entity: 'service_stock' });
    expect(audit[0]!.details).toMatchObject({ serviceId, kind: 'server', count: 3, overrodeDuplicates: false });
    for (const password of passwords) expect(JSON.stringify(audit[0]!.details)).not.toContain(password);
  });

  it('imports accounts from CSV without a header, in the documented column order', async () => {
    const serviceId = await newService('account');
    const text = `one-${random()}@bulk.test,Acct-1-${random()},Holder One\r\ntwo-${random()}@bulk.test,"Acct,2-${random()}",Holder Two,a note\r\n`;
    const done = await importRows({ serviceId, text });
    expect(done.status).toBe(201);
    expect(done.body.imported).toBe(2);
    const listed = (await list(serviceId)).body;
    expect(listed.map((item) => item.name).sort()).toEqual(['Holder One', 'Holder Two']);
    expect(listed.find((item) => item.name === 'Holder Two')).toMatchObject({ notes: 'a note' });
    expect(listed.find((item) => item.name === 'Holder Two')!.password).toMatch(/^Acct,2-/);
  });

  it('takes lines as blocks between blank lines by default, or one item per line', async () => {
    const serviceId = await newService('lines');
    const lines = Array.from({ length: 5 }, (_, i) => `10.${i}.${random()}:3128:user:pass`);
    const text = `${lines[0]}\n${lines[1]}\n\n\n${lines[2]}\r\n\r\n${lines[3]}\n${lines[4]}\n`;
    const blocks = await preview({ serviceId, text });
    expect(blocks.body.rows.map((row) => [row.row, row.label])).toEqual([
      [1, '2 lines'],
      [5, '1 line'],
      [7, '2 lines'],
    ]);
    const perLine = await preview({ serviceId, text, split: 'lines' });
    expect(perLine.body.rows.map((row) => row.row)).toEqual([1, 2, 5, 7, 8]);

    const done = await importRows({ serviceId, text });
    expect(done.status).toBe(201);
    expect(done.body.imported).toBe(3);
    const listed = (await list(serviceId)).body;
    expect(listed.map((item) => item.lines).sort()).toEqual([[lines[0], lines[1]], [lines[2]], [lines[3], lines[4]]].sort());
  });
});

describe('rows that cannot be added', () => {
  it('names the row and field of every bad row, and the import writes nothing at all', async () => {
    const serviceId = await newService('server');
    const good = `Good-${random()}`;
    const text = [
      `ok${random()}.example.net,22,root,${good}`,
      `http://bad.example.net/,22,root,Pw-${random()}`,
      `h${random()}.example.net,70000,root,Pw-${random()}`,
      `h${random()}.example.net,22,,`,
    ].join('\n');
    const seen = await preview({ serviceId, text });
    expect(seen.status).toBe(200);
    expect(seen.body.counts).toEqual({ ok: 1, duplicates: 0, invalid: 3 });
    const problems = problemsOf(seen.body.rows);
    expect(problems.some((problem) => problem.startsWith('2 host: '))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('3 port: '))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('4 user: '))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('4 password: '))).toBe(true);
    expect(seen.body.rows[0]!.problems).toEqual([]);

    const refused = await importRows({ serviceId, text });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^Row 2, host: .*Nothing was imported\.$/);
    expect(refused.body.error.details!.rows!.map((row) => row.row)).toEqual([2, 3, 4]);
    expect(await rowsOf(serviceId)).toHaveLength(0);
  });

  it('refuses a kind the service does not keep, an empty text and more than 5,000 rows, writing nothing', async () => {
    const fileService = await newService('file');
    const asFile = await preview({ serviceId: fileService, text: 'x' });
    expect(asFile.status).toBe(400);
    expect(asFile.body.error.details?.map((d) => d.path)).toContain('serviceId');
    expect((await preview({ serviceId: services.lines, text: ' \n ' })).status).toBe(400);

    const serviceId = await newService('lines');
    const tooMany = Array.from({ length: 5001 }, (_, i) => `p${i}-${random()}`).join('\n');
    const previewed = await preview({ serviceId, text: tooMany, split: 'lines' });
    expect(previewed.status).toBe(400);
    expect(previewed.body.error.details?.map((d) => d.path)).toContain('text');
    expect((await importRows({ serviceId, text: tooMany, split: 'lines' })).status).toBe(400);
    expect(await rowsOf(serviceId)).toHaveLength(0);
    const atLimit = Array.from({ length: 5000 }, (_, i) => `q${i}-${random()}`).join('\n');
    const done = await importRows({ serviceId, text: atLimit, split: 'lines' });
    expect(done.status).toBe(201);
    expect(done.body.imported).toBe(5000);

    const huge = await bench.api.call<ErrorBody>('POST', '/api/service-stocks/preview', {
      user: bench.admin,
      json: { serviceId, text: 'x'.repeat(2_100_000) },
    });
    expect(huge.status).toBe(413);
  });
});

describe('duplicates', () => {
  it('finds a repeat within the text, never imported even with the override', async () => {
    const serviceId = await newService('account');
    const email = `same-${random()}@bulk.test`;
    const password = `Same-${random()}`;
    const text = `email,password,name\n${email},${password},A\n${email.toUpperCase()},Other-${random()},B\nx-${random()}@bulk.test,${password},C\n`;
    const seen = await preview({ serviceId, text });
    expect(problemsOf(seen.body.rows)).toEqual(['3 email: same email as row 2', '4 password: same password as row 2']);
    expect(seen.body.counts).toEqual({ ok: 1, duplicates: 0, invalid: 2 });
    const refused = await importRows({ serviceId, text, overrideDuplicates: true });
    expect(refused.status).toBe(400);
    expect(await rowsOf(serviceId)).toHaveLength(0);
  });

  it('finds what is in Wise stock, in service stock or delivered to an order; 409 without the override, imported and audited with it', async () => {
    const wiseEmail = `wise-${random()}@bulk.test`;
    await bench.orders.seedStock(wiseEmail, `Wise-${random()}-pw`);
    const accountText = `${wiseEmail},Fresh-${random()},In Wise\nnew-${random()}@bulk.test,Fresh-${random()},New\n`;
    const accounts = await preview({ serviceId: services.account, text: accountText });
    expect(problemsOf(accounts.body.rows)).toEqual(['1 email: already in stock']);
    expect(accounts.body.counts).toEqual({ ok: 1, duplicates: 1, invalid: 0 });

    // A server password kept in another service's stock, and a line delivered to an order.
    const kept = `Kept-${random()}`;
    expect(
      (
        await bench.api.call('POST', '/api/service-stocks', {
          user: bench.admin,
          json: { serviceId: services.server, server: { host: 'kept.example.net', port: 22, user: 'root', password: kept } },
        })
      ).status,
    ).toBe(201);
    const serverService = await newService('server');
    const serverText = `s1.example.net,22,root,${kept}\ns2.example.net,22,root,New-${random()}\n`;
    const servers = await preview({ serviceId: serverService, text: serverText });
    expect(problemsOf(servers.body.rows)).toEqual(['1 password: already in stock']);

    const line = `172.16.${random()}:3128`;
    const linesService = await newService('lines');
    const placed = await bench.api.call<{ order: Order }>('POST', '/api/orders', { user: bench.customer, json: { productId: linesService } });
    expect((await bench.api.call('PUT', `/api/admin/orders/${placed.body.order.id}`, { user: bench.moderator, json: { lines: [line] } })).status).toBe(200);
    const lineText = `fresh-${random()}\n\n${line}\nother-${random()}\n`;
    const lines = await preview({ serviceId: services.lines, text: lineText });
    expect(problemsOf(lines.body.rows)).toEqual(['3 lines: a line is already delivered to an order']);

    const before = (await rowsOf(serverService)).length;
    const refused = await importRows({ serviceId: serverService, text: serverText });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('duplicate_credentials');
    expect(refused.body.error.details!.rows!.map((row) => row.row)).toEqual([1]);
    expect(await rowsOf(serverService)).toHaveLength(before);
    expect((await importRows({ serviceId: services.lines, text: lineText })).status).toBe(409);

    const id = crypto.randomUUID();
    const overridden = await importRows({ id, serviceId: serverService, text: serverText, overrideDuplicates: true });
    expect(overridden.status).toBe(201);
    expect(overridden.body).toMatchObject({ imported: 2, overrodeDuplicates: true });
    expect(await rowsOf(serverService)).toHaveLength(before + 2);
    const audit = await bench.api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', id).executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ count: 2, overrodeDuplicates: true, duplicateRows: 1 });
    expect(JSON.stringify(audit.details)).not.toContain(kept);

    // What was just imported is now in stock for the next import.
    const again = await preview({ serviceId: serverService, text: `s3.example.net,22,root,New-${random()}\n` });
    expect(again.body.counts.ok).toBe(1);
    const repeat = await preview({ serviceId: serverService, text: serverText });
    expect(repeat.body.counts).toEqual({ ok: 0, duplicates: 2, invalid: 0 });
  });
});

describe('imports at the same time', () => {
  it('take turns: two imports of the same rows at once add them once, the other is told they are in stock', async () => {
    const serviceId = await newService('server');
    const text = `t${random()}.example.net,22,root,Turn-${random()}\nu${random()}.example.net,22,root,Turn-${random()}`;
    const answers = await Promise.all([importRows({ serviceId, text }), importRows({ serviceId, text })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await rowsOf(serviceId)).toHaveLength(2);
  });

  it('waits while any other stock addition holds the lock single adds take, then imports', async () => {
    const serviceId = await newService('lines');
    let settled = false;
    let pending: Promise<Awaited<ReturnType<typeof importRows>>> | undefined;
    await bench.api.db.transaction().execute(async (trx) => {
      await lockStockAdditions(trx);
      pending = importRows({ serviceId, text: `w-${random()}` }).then((answer) => {
        settled = true;
        return answer;
      });
      // The import waits on that lock: a statement of this database asks for it and is not granted it.
      await vi.waitFor(
        async () => {
          const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_locks
            where locktype = 'advisory' and not granted and objsubid = 1
              and database = (select oid from pg_database where datname = current_database())
              and ((classid::bigint << 32) | objid::bigint) = hashtext('wise_stocks.add')::bigint`.execute(bench.api.db);
          expect(rows[0]!.waiting).toBeGreaterThanOrEqual(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(settled).toBe(false);
      expect(await rowsOf(serviceId)).toHaveLength(0);
    });
    expect((await pending!).status).toBe(201);
    expect(await rowsOf(serviceId)).toHaveLength(1);
  });
});

describe('who may import, and replays', () => {
  it('refuses moderators and customers (403) and callers without a token (401), writing nothing', async () => {
    const serviceId = await newService('server');
    const text = `r${random()}.example.net,22,root,Role-${random()}`;
    for (const user of [bench.moderator, bench.customer]) {
      expect((await preview({ serviceId, text }, user)).status).toBe(403);
      expect((await importRows({ serviceId, text }, user)).status).toBe(403);
    }
    expect((await bench.api.call('POST', '/api/service-stocks/batch', { json: { id: crypto.randomUUID(), serviceId, text } })).status).toBe(401);
    expect(await rowsOf(serviceId)).toHaveLength(0);
  });

  it('answers a replayed import with the first result and adds nothing; the same id with other rows is refused', async () => {
    const serviceId = await newService('server');
    const id = crypto.randomUUID();
    const text = `p${random()}.example.net,22,root,Replay-${random()}\nq${random()}.example.net,22,root,Replay-${random()}`;
    const first = await importRows({ id, serviceId, text });
    expect(first.status).toBe(201);
    const [replay, concurrent] = await Promise.all([importRows({ id, serviceId, text }), importRows({ id, serviceId, text })]);
    for (const answer of [replay, concurrent]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(first.body);
    }
    expect(await rowsOf(serviceId)).toHaveLength(2);
    expect(await bench.api.db.selectFrom('audit_log').select('id').where('entity_id', '=', id).execute()).toHaveLength(1);
    const reused = await importRows({ id, serviceId, text: `z${random()}.example.net,22,root,Other-${random()}` });
    expect(reused.status).toBe(422);
    expect(await rowsOf(serviceId)).toHaveLength(2);

    // Even once the service is gone, the same import sent again answers what it did.
    expect((await bench.api.call('DELETE', `/api/services/${serviceId}`, { user: bench.admin })).status).toBeLessThan(300);
    const late = await importRows({ id, serviceId, text });
    expect(late.status).toBe(200);
    expect(late.body).toEqual(first.body);
    expect((await importRows({ serviceId, text })).status).toBe(400);
  });
});
