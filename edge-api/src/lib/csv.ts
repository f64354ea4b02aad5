/**
 * One CSV field that is safe in every spreadsheet and locale (issue 30 item 5):
 * - a value a spreadsheet would run as a formula (starting, after any blanks, with = + - @ or their
 *   full-width forms, or with a tab or carriage return) gets a leading apostrophe, which shows as text;
 * - a value holding any separator a locale may use (comma, semicolon, tab), a quote or a line break is
 *   quoted, so no part of it can start a cell of its own (`a;=HYPERLINK(...)` in a semicolon locale).
 */
export function csvField(value: string): string {
  const defused = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/.test(value) ? `'${value}` : value;
  return /[",;\t\r\n]/.test(defused) ? `"${defused.replaceAll('"', '""')}"` : defused;
}
