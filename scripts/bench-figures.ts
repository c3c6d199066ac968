// `pnpm bench:figures`: writes the figures of the latest full `pnpm bench` run into docs/performance.md,
// between its bench-figures markers, so the doc's "Current figures" are always a run's own numbers and never
// typed by hand. Smoke runs are skipped: their figures prove only that every path still runs
// (docs/performance.md, "Running the bench").
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { BenchReport, StageReport } from '../bench/bench-run.js';
import { formatQuantity, type Figure } from '../bench/results-table.js';

const RESULTS_DIR = fileURLToPath(new URL('../bench/results/', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/performance.md', import.meta.url));
const START = '<!-- bench-figures:start -->';
const END = '<!-- bench-figures:end -->';

/** The newest full run in bench/results (file names are the run's start time), or null. */
async function latestFullRun(): Promise<{ file: string; report: BenchReport } | null> {
  const files = (await readdir(RESULTS_DIR)).filter((f) => f.endsWith('.json')).sort();
  for (const file of files.reverse()) {
    const report = JSON.parse(await readFile(join(RESULTS_DIR, file), 'utf8')) as BenchReport | StageReport;
    // A stage run alone (`--only`) has none of the other figures.
    if (!report.plan.smoke && !report.stage) return { file, report };
  }
  return null;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;

function machineLine(file: string, report: BenchReport): string {
  const { machine } = report;
  return (
    `Run of ${report.startedAt} (\`bench/results/${file}\`, ${report.elapsedS} s): ${machine.cpus} cores ` +
    `(${machine.cpuModel}), ${machine.memoryGb} GB, Node.js ${machine.node}, PostgreSQL ${machine.postgres}. ` +
    `Other processes took ${machine.othersCpu.mean} of the cores on average during the HTTP runs ` +
    `(at most ${machine.othersCpu.max}): the absolute figures are low by about that share.`
  );
}

function verdictTable(report: BenchReport): string[] {
  return [
    row(['`ratios.` key', 'value', 'goal', 'met']),
    row(['---', '---:', '---', '---']),
    ...report.ratioVerdicts.map((v) =>
      row([`\`${v.name}\``, v.value === null ? 'not measured' : String(v.value), v.goal, v.met ? 'met' : 'not met']),
    ),
  ];
}

function figureTable(figures: readonly Figure[]): string[] {
  const latency = (f: Figure) => (f.latencyMs ? `${f.latencyMs.p50.toFixed(1)} / ${f.latencyMs.p99.toFixed(1)}` : '');
  const ceiling = (f: Figure) =>
    f.ceiling ? `${formatQuantity(f.ceiling.value, f.ceiling.unit)} ${f.ceiling.name}` : '';
  return [
    row(['section', 'figure', 'value', 'p50 / p99, ms', 'ceiling', 'ratio']),
    row(['---', '---', '---:', '---:', '---', '---:']),
    ...figures.map((f) =>
      row([
        f.section,
        f.name,
        formatQuantity(f.value, f.unit) + (f.detail ? ` ${f.detail}` : ''),
        latency(f),
        ceiling(f),
        f.ratio === undefined ? '' : f.ratio.toFixed(2),
      ]),
    ),
  ];
}

export function figuresBlock(file: string, report: BenchReport): string {
  return [machineLine(file, report), '', ...verdictTable(report), '', ...figureTable(report.figures)].join('\n');
}

/** `doc` with everything between the markers replaced by `block`. */
export function withFigures(doc: string, block: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md has no ${START} … ${END} block`);
  return `${doc.slice(0, start + START.length)}\n\n${block}\n\n${doc.slice(end)}`;
}

async function main(): Promise<void> {
  const latest = await latestFullRun();
  if (!latest) {
    console.error('no full run in bench/results/: run `pnpm bench` first (smoke runs are not figures)');
    process.exit(1);
  }
  const doc = withFigures(await readFile(DOC, 'utf8'), figuresBlock(latest.file, latest.report));
  // The same layout `pnpm lint` checks, so a regenerated doc passes prettier --check as written.
  const formatted = await format(doc, { ...(await resolveConfig(DOC)), filepath: DOC });
  await writeFile(DOC, formatted);
  console.log(`docs/performance.md: figures of ${latest.file}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
