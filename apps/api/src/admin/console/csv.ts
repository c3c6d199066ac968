/**
 * One CSV line (RFC 4180): fields with a comma, quote or line break are quoted. A field a spreadsheet would
 * run as a formula (starting with = + - @ or a tab or CR) is prefixed with ' so that opening a statement
 * never executes anything a beneficiary name smuggled in.
 */
export function csvLine(fields: readonly (string | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
