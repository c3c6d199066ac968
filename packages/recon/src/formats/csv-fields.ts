/**
 * The fields of one delimited line (RFC 4180): plain, or double-quoted with "" for a quote inside. Banks'
 * exports use a comma, a semicolon, a tab or a pipe; the profile says which (docs/reconciliation-formats.md).
 */
export function splitFields(
  row: string,
  delimiter: string,
): { ok: true; fields: string[] } | { ok: false; message: string } {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (row[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= row.length) return { ok: false, message: 'a quoted field is not closed' };
        if (row[i] === '"') {
          if (row[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += row.charAt(i);
        i++;
      }
      // Spaces after a closing quote are padding some exports add before the delimiter.
      while (row[i] === ' ') i++;
      if (i < row.length && row[i] !== delimiter) return { ok: false, message: 'text after a closing quote' };
      fields.push(value);
    } else {
      const end = row.indexOf(delimiter, i);
      const value = end < 0 ? row.slice(i) : row.slice(i, end);
      if (value.includes('"')) return { ok: false, message: 'a quote inside an unquoted field' };
      fields.push(value);
      i = end < 0 ? row.length : end;
    }
    if (i >= row.length) return { ok: true, fields };
    i++; // the delimiter
    if (i === row.length) {
      fields.push('');
      return { ok: true, fields };
    }
  }
}
