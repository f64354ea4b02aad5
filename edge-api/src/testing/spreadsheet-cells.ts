/**
 * Every cell a spreadsheet would make of a CSV text when it splits on `separator`, as Excel, LibreOffice
 * and Python's csv module do: a quote opens a quoted cell only at the cell's start (elsewhere it is a
 * plain character), a doubled quote inside is one quote, and a line break outside quotes ends the row.
 * Rows are flattened: the formula check only cares about where cells start.
 */
export function spreadsheetCells(text: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let atStart = true;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (atStart && ch === '"') {
      quoted = true;
      atStart = false;
    } else if (ch === separator || ch === '\n' || ch === '\r') {
      cells.push(cell);
      cell = '';
      atStart = true;
    } else {
      cell += ch;
      atStart = false;
    }
  }
  return [...cells, cell];
}

/** What a spreadsheet runs as a formula: a cell starting, after blanks, with = + - @ (or full-width). */
export const FORMULA_CELL = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
