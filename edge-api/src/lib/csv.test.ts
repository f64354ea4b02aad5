import { describe, expect, it } from 'vitest';
import { FORMULA_CELL, spreadsheetCells } from '../testing/spreadsheet-cells.ts';
import { csvField } from './csv.ts';

/** The attacker's payloads (issue 30 item 5): a `;` or tab locale makes the piece after it a cell of its own. */
const hostile = [
  "Bob;=cmd|'/C calc'!A0;",
  'Al;=1+1;',
  "Ann;=cmd|'/C calc'!A0;",
  'a;=HYPERLINK("http://x","y")',
  'a,=1+1',
  'a\t=1+1',
  'a\t\t+1',
  'name\n=cmd',
  'name\r\n@x',
  'say "hi";@x',
  'x; "=1+1"',
  'x;""-2',
  '\uFF1D1;\uFF0B2',
];

describe('csvField', () => {
  it('leaves plain text as it is', () => {
    expect(csvField('Wise Business')).toBe('Wise Business');
    expect(csvField('12.50')).toBe('12.50');
  });

  it('defuses a value a spreadsheet would run, blanks or full-width forms first included', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '  =HYPERLINK("x")', '\uFF1D1+1'])
      expect(csvField(value).replace(/^"/, '')).toMatch(/^'/);
  });

  it('never lets a part of a value start a formula cell, with a comma, semicolon or tab as the separator', () => {
    for (const separator of [',', ';', '\t']) {
      for (const value of hostile) {
        const line = ['first', '15', csvField(value), 'last@x.test', 'pending'].join(',');
        for (const cell of spreadsheetCells(line, separator))
          expect(cell, `${JSON.stringify(value)} split on ${JSON.stringify(separator)}`).not.toMatch(FORMULA_CELL);
      }
    }
  });

  it('keeps the value in one cell for a comma reader, apostrophes before formula pieces aside', () => {
    for (const value of hostile) {
      const cells = spreadsheetCells(['first', csvField(value), 'last'].join(','), ',');
      expect(cells).toHaveLength(3);
      expect(cells[1]!.replaceAll("'", '')).toBe(value.replaceAll("'", ''));
    }
    expect(csvField("Bob;=cmd|'/C calc'!A0;")).toBe(`"Bob;'=cmd|'/C calc'!A0;"`);
    expect(csvField('Coffee; tea')).toBe('"Coffee; tea"');
  });
});
