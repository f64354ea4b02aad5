import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../contract/stock-batches.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { FORMULA_CELL, spreadsheetCells } from '../testing/spreadsheet-cells.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;

const exportCsv = async (query = '', user = admin) => {
  const response = await api.app.request(`/api/wise-stocks/export.csv${query}`, { headers: { authorization: `Bearer ${user.token}` } });
  return { response, text: await response.text() };
};
const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;
const exportAudits = () => api.db.selectFrom('audit_log').selectAll().where('action', '=', 'wise_stock.export').orderBy('created_at').execute();

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator] = await Promise.all([api.createUser('admin'), api.createUser('moderator')]);
  // 1,203 stocks: more than one batch of the stream; a name that needs quoting and one a spreadsheet would run.
  const lines = Array.from({ length: 1201 }, (_, i) => `export${i}@wise.test,Export#${i},Holder ${i},`);
  const imported = await api.call<ImportResult>('POST', '/api/stock-batches', {
    user: admin,
    json: {
      label: 'Export test',
      text: ['email,password,name,notes', ...lines, 'quoted@wise.test,"Pass,word","=Rahman, Q","=HYPERLINK(""x"")"', 'sold@wise.test,Sold#1,Sold One,'].join(
        '\n',
      ),
    },
  });
  expect(imported.status).toBe(201);
  const sold = await api.db.selectFrom('wise_stocks').select('id').where('wise_email', '=', 'sold@wise.test').executeTakeFirstOrThrow();
  expect((await api.call('PUT', `/api/wise-stocks/${sold.id}`, { user: admin, json: { status: 'used' } })).status).toBe(200);
});
afterAll(() => api.close());

describe('exporting stock as CSV', () => {
  it('answers every live stock without passwords unless asked, as a private download, and audits it', async () => {
    const { response, text } = await exportCsv();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="wise-stocks-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(text.split('\r\n')[0]).toBe('email,name,notes,status,soldTo,orderId,batchId,addedBy,createdAt,id');
    const rows = rowsOf(text);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((row) => row.id)).size).toBe(1203);
    expect(text).not.toContain('Export#7');
    const quoted = rows.find((row) => row.email === 'quoted@wise.test')!;
    // Formulas are defused; commas kept inside quotes.
    expect(quoted.name).toBe(`'=Rahman, Q`);
    expect(quoted.notes).toBe(`'=HYPERLINK("x")`);
    const audits = await exportAudits();
    expect(audits.at(-1)).toMatchObject({ actor_id: admin.id, details: { passwords: false, status: 'all' } });
  });

  it('adds the passwords only when the admin asks explicitly, and the audit log says so', async () => {
    const before = (await exportAudits()).length;
    const { response, text } = await exportCsv('?passwords=true&status=available');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('-with-passwords.csv');
    const rows = rowsOf(text);
    expect(rows).toHaveLength(1202);
    expect(rows.find((row) => row.email === 'export7@wise.test')?.password).toBe('Export#7');
    expect(rows.find((row) => row.email === 'quoted@wise.test')?.password).toBe('Pass,word');
    expect(rows.some((row) => row.email === 'sold@wise.test')).toBe(false);
    const audits = await exportAudits();
    expect(audits).toHaveLength(before + 1);
    expect(audits.at(-1)!.details).toEqual({ passwords: true, status: 'available' });
  });

  it('is for admins only', async () => {
    const { response, text } = await exportCsv('?passwords=true', moderator);
    expect(response.status).toBe(403);
    expect(text).not.toContain('Export#');
  });

  it('lets no name start a formula cell in a comma, semicolon or tab locale (issue 30 item 5)', async () => {
    const name = "Ann;=cmd|'/C calc'!A0;";
    const imported = await api.call<ImportResult>('POST', '/api/stock-batches', {
      user: admin,
      json: { label: 'Semicolon locale', text: ['email,password,name,notes', `semi@wise.test,Semi#1,"${name}",x;@SUM(A1)`].join('\n') },
    });
    expect(imported.status).toBe(201);
    const { response, text } = await exportCsv();
    expect(response.status).toBe(200);
    expect(rowsOf(text).find((row) => row.email === 'semi@wise.test')?.name).toBe("Ann;'=cmd|'/C calc'!A0;");
    for (const separator of [',', ';', '\t']) {
      const formulas = spreadsheetCells(text, separator).filter((cell) => FORMULA_CELL.test(cell));
      expect(formulas, `split on ${JSON.stringify(separator)}`).toEqual([]);
    }
  });
});
