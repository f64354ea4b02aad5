import { describe, expect, it } from 'vitest';
import { csvField } from './csv.ts';

/** The cells a spreadsheet would make of one line, splitting on `separator` outside quotes. */
function cells(line: string, separator: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === separator && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += ch;
  }
  return [...out, cell];
}

const formula = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r]/;

describe('csvField', () => {
  it('leaves plain text as it is', () => {
    expect(csvField('Wise Business')).toBe('Wise Business');
    expect(csvField('12.50')).toBe('12.50');
  });

  it('defuses a value a spreadsheet would run, blanks or full-width forms first included', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '  =HYPERLINK("x")', '\uFF1D1+1'])
      expect(csvField(value).replace(/^"/, '')).toMatch(/^'/);
  });

  it('never lets a part of a value start a cell of its own, with a comma, semicolon or tab as the separator', () => {
    const hostile = ['a;=HYPERLINK("http://x","y")', 'a,=1+1', 'a\t=1+1', 'name\n=cmd', 'say "hi";@x'];
    for (const separator of [',', ';', '\t']) {
      for (const value of hostile) {
        const line = ['first', csvField(value), 'last'].join(separator);
        const parsed = cells(line, separator);
        expect(parsed, `${JSON.stringify(value)} with ${JSON.stringify(separator)}`).toHaveLength(3);
        expect(parsed[1]).toBe(value);
        for (const cell of parsed) expect(cell).not.toMatch(formula);
      }
    }
  });
});
