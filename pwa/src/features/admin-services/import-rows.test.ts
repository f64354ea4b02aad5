import { describe, expect, it } from 'vitest';
import { splitOutRows } from './import-rows.ts';

describe('the rows an import leaves out, to fix in the box (decision 198)', () => {
  it('takes out single-line rows by the line they are on, keeping the header', () => {
    const text = 'host,port,user,password\nvps1.test,22,root,Good#Pass1\nvps2.test,abc,root,Good#Pass2\nvps3.test,22,root,Good#Pass3\n,22,root,x';
    expect(splitOutRows(text, [{ row: 3 }, { row: 5 }], 'server', 'blocks')).toEqual({
      kept: 'host,port,user,password\nvps1.test,22,root,Good#Pass1\nvps3.test,22,root,Good#Pass3',
      left: 'vps2.test,abc,root,Good#Pass2\n,22,root,x',
    });
  });

  it('takes out a whole block of lines, and keeps blocks left out apart', () => {
    const text = 'a1\na2\n\nb1\nb2\n\nc1\n\nd1';
    expect(splitOutRows(text, [{ row: 4 }, { row: 9 }], 'lines', 'blocks')).toEqual({ kept: 'a1\na2\n\n\nc1\n', left: 'b1\nb2\n\nd1' });
  });

  it('takes out one line when each line is an item, and ignores a row beyond the text', () => {
    expect(splitOutRows('x\ny\nz', [{ row: 2 }, { row: 40 }], 'lines', 'lines')).toEqual({ kept: 'x\nz', left: 'y' });
  });
});
