import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextVersion } from '../db/versions.ts';
import type { ApiHarness, TestUser } from '../testing/api-harness.ts';
import { FORMULA_CELL, spreadsheetCells } from '../testing/spreadsheet-cells.ts';
import { errorPaths as paths, orderTestBench, random, type ErrorBody, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness, admin: TestUser, moderator: TestUser, customer: TestUser, orders: OrderFixtures;
const bench = orderTestBench();
beforeAll(() => ({ api, admin, moderator, customer, orders } = bench));

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('GET /api/admin/orders/export.csv', () => {
  it('downloads the filtered orders as CSV, escaped, formulas defused, without any password', async () => {
    const mark = `Csv${random()}`;
    const buyer = { id: crypto.randomUUID(), email: `+csv-${random()}@shop.test`, name: '=HYPERLINK("http://evil.test","click")' };
    const tricky = await orders.seedOrder({ user: buyer, title: `Pro, "Plus"\nEdition ${mark}`, price: '-5 USD', paymentStatus: 'pending' });
    const plain = await orders.seedOrder({ user: buyer, title: `Plain ${mark}`, price: '$30 USD', paymentStatus: 'pending' });
    const password = `Csv-secret-${random()}`;
    await api.db.updateTable('orders').set({ payment_status: 'paid' }).where('id', '=', plain).execute();
    const delivered = await orders.deliverTyped(plain, 'lead@wise.test', password);
    expect(delivered.status).toBe(200);

    const exported = await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}`, { user: moderator });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(exported.body).not.toContain(password);

    const [header, ...rows] = parseCsv(exported.body);
    expect(header).toEqual(['id', 'orderDate', 'title', 'category', 'price', 'userName', 'userEmail', 'paymentStatus', 'orderStatus', 'wiseEmail']);
    expect(rows.map((r) => r[0]).sort()).toEqual([tricky, plain].sort());
    const trickyRow = rows.find((r) => r[0] === tricky)!;
    expect(trickyRow[2]).toBe(`Pro, "Plus"\nEdition ${mark}`);
    expect(trickyRow[4]).toBe("'-5 USD");
    expect(trickyRow[5]).toBe(`'${buyer.name}`);
    expect(trickyRow[6]).toBe(`'${buyer.email}`);
    const plainRow = rows.find((r) => r[0] === plain)!;
    expect(plainRow.slice(7)).toEqual(['paid', 'delivered', 'lead@wise.test']);
    expect(rows.every((r) => r.length === 10)).toBe(true);

    const onlyPending = parseCsv((await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}&paymentStatus=pending`, { user: admin })).body);
    expect(onlyPending.slice(1).map((r) => r[0])).toEqual([tricky]);
  });

  it('lets no display name start a formula cell when a spreadsheet splits on ; or tab (issue 30 item 5)', async () => {
    const mark = `Semi${random()}`;
    for (const name of ["Bob;=cmd|'/C calc'!A0;", 'Al;=1+1;', 'Tab\t+1\t'])
      await orders.seedOrder({ user: { id: crypto.randomUUID(), email: `semi-${random()}@shop.test`, name }, title: `Semi ${mark}`, price: '15' });
    const exported = await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}`, { user: admin });
    expect(exported.status).toBe(200);
    expect(
      parseCsv(exported.body)
        .slice(1)
        .map((row) => row[5])
        .sort(),
    ).toEqual(["Al;'=1+1;", "Bob;'=cmd|'/C calc'!A0;", "Tab\t'+1\t"]);
    for (const separator of [',', ';', '\t']) {
      const formulas = spreadsheetCells(exported.body, separator).filter((cell) => FORMULA_CELL.test(cell));
      expect(formulas, `split on ${JSON.stringify(separator)}`).toEqual([]);
    }
  });

  it('exports every matching row across batches, in list order, even when many share a timestamp', async () => {
    const mark = `Bulk${random()}`;
    const buyer = await api.createUser('user');
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      await sql`
        insert into orders (id, product_id, title, price, user_id, user_email, user_name, version, created_at, order_date)
        select gen_random_uuid(), ${orders.serviceId}, ${`Bulk ${mark} `}::text || g, '1', ${buyer.id}, ${buyer.email}, 'Bulk Buyer', ${version},
               timestamptz '2024-03-01 00:00:00+00' + (g / 7) * interval '1.000001 second', now()
        from generate_series(1, 4321) g`.execute(trx);
    });
    const expected = await api.db
      .selectFrom('orders')
      .select('id')
      .where('title', 'like', `Bulk ${mark} %`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
      .execute();
    const exported = await api.call<string>('GET', `/api/admin/orders/export.csv?search=${mark}`, { user: admin });
    const ids = parseCsv(exported.body)
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toHaveLength(4321);
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  it('is for staff only and checks its filters', async () => {
    expect((await api.call('GET', '/api/admin/orders/export.csv', { user: customer })).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders/export.csv')).status).toBe(401);
    const bad = await api.call<ErrorBody>('GET', '/api/admin/orders/export.csv?status=lost', { user: admin });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('status');
  });
});
