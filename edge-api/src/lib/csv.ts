/** A character a spreadsheet runs as the start of a formula (ASCII and full-width forms). */
const FORMULA_START = '[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20]';

/**
 * A place inside a value where some locale's reader may start a new cell: the value's start, or just after a
 * comma, semicolon, tab or line break, followed (after any blanks or quotes) by a formula character.
 */
const CELL_START_FORMULA = new RegExp(`(^|[,;\\t\\r\\n])(?=[\\s"]*${FORMULA_START})`, 'g');

/**
 * One CSV field that is safe in every spreadsheet and locale (issue 30 item 5, decision 246):
 * - every place where a reader splitting on comma, semicolon or tab could start a cell with a formula
 *   (the value's start, or just after any of those separators or a line break inside the value) gets an
 *   apostrophe, which a spreadsheet shows as text. A semicolon reader treats a quote in mid-line as a plain
 *   character, so quoting alone does not keep `Bob;=cmd|'/C calc'!A0;` in one cell: the piece after the `;`
 *   must itself be defused. A value starting with a tab or carriage return is prefixed too;
 * - a value holding a comma, semicolon, tab, quote or line break is quoted, with quotes doubled, so a
 *   comma reader keeps it in one cell.
 */
export function csvField(value: string): string {
  const leading = /^[\t\r]/.test(value) ? `'${value}` : value;
  const defused = leading.replace(CELL_START_FORMULA, "$1'");
  return /[",;\t\r\n]/.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}
