/** One line of the results: a measured figure, what it is measured against, and its target. */
export interface Figure {
  section: 'ceiling' | 'api' | 'end to end' | 'memory';
  name: string;
  value: number;
  unit: string;
  /** Latency of the run behind a throughput figure. */
  latencyMs?: { p50: number; p99: number };
  /** Extra words shown after the value, e.g. the first and last RSS samples. */
  detail?: string;
  ceiling?: { name: string; value: number; unit: string };
  /** value ÷ ceiling. */
  ratio?: number;
  /** The target for the ratio (bench/ratios.ts); reported, never enforced. */
  target?: { text: string; met: boolean };
}

export function ratioFigure(
  figure: Omit<Figure, 'ratio' | 'target' | 'ceiling'>,
  ceiling: Figure['ceiling'],
  target?: { atLeast?: number; atMost?: number },
): Figure {
  const ratio = ceiling && ceiling.value > 0 ? figure.value / ceiling.value : undefined;
  let verdict: Figure['target'];
  if (ratio !== undefined && target?.atLeast !== undefined) {
    verdict = { text: `≥ ${target.atLeast.toFixed(2)}`, met: ratio >= target.atLeast };
  } else if (ratio !== undefined && target?.atMost !== undefined) {
    verdict = { text: `≤ ${target.atMost.toFixed(2)}`, met: ratio <= target.atMost };
  }
  return {
    ...figure,
    ...(ceiling && { ceiling }),
    ...(ratio !== undefined && { ratio }),
    ...(verdict && { target: verdict }),
  };
}

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatQuantity(value: number, unit: string): string {
  if (unit === '/s') return `${thousands.format(value)}/s`;
  // CPU per answer is a fraction of a millisecond: one decimal would round 0.45 and 0.54 alike.
  if (unit === 'ms' && value < 10) return `${value.toFixed(2)} ms`;
  return `${oneDecimal.format(value)} ${unit}`;
}

/** The results as a plain-text table, one section after another. */
export function formatTable(figures: readonly Figure[]): string {
  const header = ['figure', 'value', 'p50 / p99', 'ceiling', 'ratio', 'target'];
  const rows: string[][] = [];
  let section: string | undefined;
  for (const f of figures) {
    if (f.section !== section) {
      section = f.section;
      rows.push([`[${section}]`, '', '', '', '', '']);
    }
    rows.push([
      `  ${f.name}`,
      formatQuantity(f.value, f.unit) + (f.detail ? ` ${f.detail}` : ''),
      f.latencyMs ? `${oneDecimal.format(f.latencyMs.p50)} / ${oneDecimal.format(f.latencyMs.p99)} ms` : '',
      f.ceiling ? `${formatQuantity(f.ceiling.value, f.ceiling.unit)} ${f.ceiling.name}` : '',
      f.ratio !== undefined ? f.ratio.toFixed(2) : '',
      f.target ? `${f.target.text} ${f.target.met ? 'met' : 'NOT met'}` : '',
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}
