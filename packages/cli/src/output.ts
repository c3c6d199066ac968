/** How a command's result is shown: JSON for scripts (--json), a readable table for people. */
export interface Output {
  json: boolean;
  write(line: string): void;
}

export type Row = Record<string, string | number | boolean | null>;

/** A result: a JSON document for --json, or titled tables of rows otherwise. */
export function show(out: Output, result: Record<string, unknown>, tables: { title?: string; rows: Row[] }[]): void {
  if (out.json) {
    out.write(
      JSON.stringify(result, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2),
    );
    return;
  }
  for (const table of tables) {
    if (table.title) out.write(table.title);
    out.write(renderTable(table.rows));
  }
}

/**
 * A result of one row, and under it the notes that apply (what the operator should know or do next; a
 * false or null one does not apply). With --json, only the result.
 */
export function showResult(out: Output, result: Row, notes: (string | false | null)[] = []): void {
  const applying = notes.filter((text) => typeof text === 'string');
  show(out, result, [{ rows: [result] }, ...applying.map((note) => ({ rows: [{ note }] }))]);
}

/** Renders rows as an aligned text table with a header line. */
function renderTable(rows: Row[]): string {
  if (rows.length === 0) return '(none)';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: Row[string] | undefined) => (v === null || v === undefined ? '' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join('\n');
}
