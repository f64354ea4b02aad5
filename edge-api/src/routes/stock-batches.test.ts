import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult, StockBatch, WithdrawResult } from '../contract/stock-batches.ts';
import { STOCK_IMPORT_TEMPLATE } from '../contract/stock-batches.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { createOrderFixtures, random, type OrderFixtures } from '../testing/order-fixtures.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let fx: OrderFixtures;

type ErrorBody = { error: { code: string; message: string; details?: unknown } };

const preview = (text: string) => api.call<ImportPreview & ErrorBody>('POST', '/api/stock-batches/preview', { user: admin, json: { text } });
const importText = (text: string, label = 'November delivery', id?: string) =>
  api.call<ImportResult & ErrorBody>('POST', '/api/stock-batches', { user: admin, json: { label, text, ...(id ? { id } : {}) } });
const batchStocks = (batchId: string) => api.db.selectFrom('wise_stocks').selectAll().where('batch_id', '=', batchId).execute();
const stockCount = async () =>
  (
    await api.db
      .selectFrom('wise_stocks')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
  fx = await createOrderFixtures(api, { admin, moderator, customer });
});
afterAll(() => api.close());

describe('previewing an import', () => {
  it('classifies every line: new, duplicate within the file, already in stock, already delivered, invalid with the reason', async () => {
    const tag = random();
    const inStock = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: { wiseName: 'Old', wiseEmail: `stocked-${tag}@wise.test`, wisePassword: `Stocked#${tag}`, authImage: 'https://img.example/a.png', userName: 'K' },
    });
    expect(inStock.status).toBe(201);
    const orderId = await fx.placeOrder();
    expect((await fx.deliverTyped(orderId, `sold-${tag}@wise.test`, `Sold#${tag}`)).status).toBe(200);

    const text = [
      'email,password,name,notes',
      `new-${tag}@wise.test,New#${tag},Nadia Rahman,first`,
      `NEW-${tag}@wise.test,Other#${tag},Nadia Again,`,
      `STOCKED-${tag}@wise.test,Fresh#${tag},Stocked Again,`,
      `fresh-${tag}@wise.test,Sold#${tag},Reused Password,`,
      `not-an-email,Pw#${tag},Broken,`,
      `missing-${tag}@wise.test,,No Password,`,
      '',
      `quoted-${tag}@wise.test,"Comma,Pass#${tag}","Rahman, Quoted","a note, with a comma"`,
    ].join('\n');
    const answer = await preview(text);
    expect(answer.status).toBe(200);
    expect(answer.body.lines).toEqual([
      { line: 2, email: `new-${tag}@wise.test`, name: 'Nadia Rahman', status: 'new' },
      { line: 3, email: `NEW-${tag}@wise.test`, name: 'Nadia Again', status: 'duplicate_in_file', reason: 'same email as line 2' },
      { line: 4, email: `STOCKED-${tag}@wise.test`, name: 'Stocked Again', status: 'in_stock', reason: 'email already in stock' },
      { line: 5, email: `fresh-${tag}@wise.test`, name: 'Reused Password', status: 'delivered', reason: 'password already delivered to an order' },
      { line: 6, email: 'not-an-email', name: 'Broken', status: 'invalid', reason: expect.stringMatching(/^email: /) },
      { line: 7, email: `missing-${tag}@wise.test`, name: 'No Password', status: 'invalid', reason: 'password: is required' },
      // The blank line is skipped; quoted fields keep their commas.
      { line: 9, email: `quoted-${tag}@wise.test`, name: 'Rahman, Quoted', status: 'new' },
    ]);
    expect(answer.body.counts).toEqual({ new: 2, duplicate_in_file: 1, in_stock: 1, delivered: 1, invalid: 2 });
    // A preview writes nothing, and never answers a password.
    expect(JSON.stringify(answer.body)).not.toContain(`New#${tag}`);
  });

  it('reads pasted lines without a header, separated by tabs, in the documented column order', async () => {
    const tag = random();
    const answer = await preview(`tab-${tag}@wise.test\tTab#${tag}\tTab Holder\tfrom a sheet\n`);
    expect(answer.body.lines).toEqual([{ line: 1, email: `tab-${tag}@wise.test`, name: 'Tab Holder', status: 'new' }]);
  });

  it('accepts the downloadable template as it is', async () => {
    const answer = await preview(STOCK_IMPORT_TEMPLATE);
    expect(answer.status).toBe(200);
    expect(answer.body.counts.new + answer.body.counts.in_stock).toBe(1);
  });
});

describe('importing', () => {
  it('writes the accepted lines in one batch (label, who, when, count) with their passwords encrypted, and audits it', async () => {
    const tag = random();
    const before = await stockCount();
    const text = `email,password,name,notes\na-${tag}@wise.test,A#${tag},Holder A,note a\nb-${tag}@wise.test,B#${tag},Holder B,\na-${tag}@wise.test,C#${tag},Twice,\nbad,D#${tag},Bad,\n`;
    const imported = await importText(text, `Batch ${tag}`);
    expect(imported.status).toBe(201);
    const { batch } = imported.body;
    expect(batch).toMatchObject({ label: `Batch ${tag}`, userEmail: admin.email, itemCount: 2, availableCount: 2, withdrawnCount: 0, withdrawnAt: null });
    expect(imported.body.preview.counts).toMatchObject({ new: 2, duplicate_in_file: 1, invalid: 1 });
    expect(await stockCount()).toBe(before + 2);

    const rows = await batchStocks(batch.id);
    expect(rows.map((row) => row.wise_email).sort()).toEqual([`a-${tag}@wise.test`, `b-${tag}@wise.test`]);
    expect(rows.every((row) => row.status === 'available' && row.added_by === admin.id)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(`A#${tag}`);
    // One version for the whole batch: one sync cursor step.
    expect(new Set(rows.map((row) => row.version)).size).toBe(1);

    const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: admin });
    const a = listed.body.find((stock) => stock.wiseEmail === `a-${tag}@wise.test`)!;
    expect(a).toMatchObject({ wisePassword: `A#${tag}`, wiseName: 'Holder A', notes: 'note a', batchId: batch.id, status: 'available' });

    const batches = await api.call<StockBatch[]>('GET', '/api/stock-batches', { user: moderator });
    expect(batches.status).toBe(200);
    expect(batches.body.find((b) => b.id === batch.id)).toEqual(batch);
    const [entry] = await fx.auditRows(batch.id);
    expect(entry).toMatchObject({ action: 'stock_batch.import', actor_id: admin.id });
  });

  it('imports nothing when no line is new, and answers the same client id once', async () => {
    const tag = random();
    const before = await stockCount();
    const refused = await importText(`bad-email,Pw#${tag},X,\n`);
    expect(refused.status).toBe(400);
    expect(await stockCount()).toBe(before);

    const id = crypto.randomUUID();
    expect((await importText(`once-${tag}@wise.test,Once#${tag},Once,\n`, 'Once', id)).status).toBe(201);
    const again = await importText(`twice-${tag}@wise.test,Twice#${tag},Twice,\n`, 'Once', id);
    expect(again.status).toBe(409);
    expect(await stockCount()).toBe(before + 1);
  });

  it('lets only one of two simultaneous imports of the same lines in', async () => {
    const tag = random();
    const text = `race-${tag}@wise.test,Race#${tag},Race,\n`;
    const answers = await Promise.all([importText(text), importText(text)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect((await api.db.selectFrom('wise_stocks').select('id').where('wise_email', '=', `race-${tag}@wise.test`).execute()).length).toBe(1);
  });

  it('is for admins only: moderators read batches but neither preview, import nor withdraw', async () => {
    const tag = random();
    const text = `mod-${tag}@wise.test,Mod#${tag},Mod,\n`;
    expect((await api.call('POST', '/api/stock-batches/preview', { user: moderator, json: { text } })).status).toBe(403);
    expect((await api.call('POST', '/api/stock-batches', { user: moderator, json: { label: 'x', text } })).status).toBe(403);
    expect((await api.call('POST', `/api/stock-batches/${crypto.randomUUID()}/withdraw`, { user: moderator })).status).toBe(403);
    expect((await api.call('GET', '/api/stock-batches', { user: customer })).status).toBe(403);
  });
});

describe('withdrawing a batch', () => {
  it("removes the batch's still-available items in one action and keeps the sold ones", async () => {
    const tag = random();
    const imported = await importText(`w1-${tag}@wise.test,W1#${tag},W1,\nw2-${tag}@wise.test,W2#${tag},W2,\nw3-${tag}@wise.test,W3#${tag},W3,\n`);
    const { batch } = imported.body;
    const [sold] = await batchStocks(batch.id);
    const orderId = await fx.placeOrder();
    const delivered = await api.call('PUT', `/api/admin/orders/${orderId}`, {
      user: admin,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', stockId: sold!.id },
    });
    expect(delivered.status).toBe(200);

    const withdrawn = await api.call<WithdrawResult>('POST', `/api/stock-batches/${batch.id}/withdraw`, { user: admin });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.withdrawn).toBe(2);
    expect(withdrawn.body.batch).toMatchObject({ itemCount: 3, availableCount: 0, withdrawnCount: 2 });
    expect(withdrawn.body.batch.withdrawnAt).not.toBeNull();

    const listed = await api.call<WiseStock[]>('GET', '/api/wise-stocks', { user: admin });
    const left = listed.body.filter((stock) => stock.batchId === batch.id);
    expect(left.map((stock) => [stock.id, stock.status])).toEqual([[sold!.id, 'sold']]);
    // Withdrawn credentials are out of stock: they may be stocked again.
    const back = await preview(`w2-${tag}@wise.test,W2#${tag},W2,\n`);
    expect(back.body.lines[0]!.status).toBe('new');
    const [entry] = (await fx.auditRows(batch.id)).filter((row) => row.action === 'stock_batch.withdraw');
    expect(entry).toBeTruthy();
    expect((await api.call('POST', `/api/stock-batches/${crypto.randomUUID()}/withdraw`, { user: admin })).status).toBe(404);
  });
});
