// `pnpm bench:figures`: writes the figures of the latest three full `pnpm bench` runs into docs/performance.md,
// between its bench-figures markers, so the doc's "Current figures" are always runs' own numbers and never
// typed by hand. A goal counts as met only when it is met in each of three consecutive full runs
// (docs/performance.md, "Targets"), so every ratio is shown in each of them. Smoke runs are skipped: their
// figures prove only that every path still runs (docs/performance.md, "Running the bench").
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { BenchReport, StageReport } from '../bench/bench-run.js';
import { goalText, meets, RATIO_GOALS, type RatioName, type Ratios } from '../bench/ratios.js';
import { formatQuantity, type Figure } from '../bench/results-table.js';

const RESULTS_DIR = fileURLToPath(new URL('../bench/results/', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/performance.md', import.meta.url));
const START = '<!-- bench-figures:start -->';
const END = '<!-- bench-figures:end -->';
/** Consecutive full runs a goal must be met in. */
const RUNS = 3;

/** A full run as read back: a run older than a key of bench/ratios.ts has no such key in its `ratios`. */
export interface FullRun {
  file: string;
  report: Omit<BenchReport, 'ratios'> & { ratios: Partial<Ratios> };
}

/** The newest `count` full runs in `dir` (file names are the runs' start times), oldest first; fewer if fewer exist. */
export async function latestFullRuns(dir = RESULTS_DIR, count = RUNS): Promise<FullRun[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const runs: FullRun[] = [];
  for (const file of files.reverse()) {
    if (runs.length === count) break;
    const report = JSON.parse(await readFile(join(dir, file), 'utf8')) as FullRun['report'] | StageReport;
    // A stage run alone (`--only`) has none of the other figures.
    if (!report.plan.smoke && !report.stage) runs.unshift({ file, report });
  }
  return runs;
}

/** One `ratios.` key over the runs shown, oldest first, beside its goal. */
export interface RatioAcrossRuns {
  name: RatioName;
  /** Each run's value; null: the run could not measure it, or predates the key. */
  values: (number | null)[];
  /** The lowest and highest measured value; null when no run measured it. */
  spread: { min: number; max: number } | null;
  goal: string;
  /** How many of the runs met the goal. */
  metIn: number;
  /** Met in every run shown. */
  met: boolean;
}

/**
 * Each goal of bench/ratios.ts over `runs` (oldest first). Every run is judged by today's goal, not the
 * verdict it wrote: goals move, and an older run's verdict is against the goal of its day. A goal is met
 * only when it is met in each of {@link RUNS} runs: fewer runs meet nothing yet.
 */
export function ratiosAcrossRuns(runs: readonly { ratios: Partial<Ratios> }[]): RatioAcrossRuns[] {
  return (Object.keys(RATIO_GOALS) as RatioName[]).map((name) => {
    const values = runs.map((run) => run.ratios[name] ?? null);
    const measured = values.filter((v): v is number => v !== null);
    const metIn = values.filter((v) => meets(v, RATIO_GOALS[name])).length;
    return {
      name,
      values,
      spread: measured.length ? { min: Math.min(...measured), max: Math.max(...measured) } : null,
      goal: goalText(RATIO_GOALS[name]),
      metIn,
      met: runs.length >= RUNS && metIn === runs.length,
    };
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
const valueText = (value: number | null) => (value === null ? 'not measured' : String(value));

function machineLine(runs: readonly FullRun[]): string {
  const latest = runs.at(-1)!.report;
  const { machine } = latest;
  const files = runs.map((r) => `\`bench/results/${r.file}\` (${r.report.machine.othersCpu.mean})`).join(', ');
  const fewer =
    runs.length < RUNS
      ? `Only ${runs.length} full run${runs.length === 1 ? '' : 's'} so far, where a goal is judged over ${RUNS}. `
      : '';
  return (
    `${fewer}The runs the verdicts are over, oldest first, each with the share of the cores other processes ` +
    `took on average during its HTTP runs (\`machine.othersCpu.mean\`): ${files}. The figure table is the ` +
    `latest run's, of ${latest.startedAt} (${latest.elapsedS} s): ${machine.cpus} cores (${machine.cpuModel}), ` +
    `${machine.memoryGb} GB, Node.js ${machine.node}, PostgreSQL ${machine.postgres}; other processes took at ` +
    `most ${machine.othersCpu.max} of the cores in it, and its absolute figures are low by about their mean share.`
  );
}

function verdictTable(runs: readonly FullRun[]): string[] {
  const spread = (s: RatioAcrossRuns['spread']) =>
    !s ? 'not measured' : s.min === s.max ? String(s.min) : `${s.min}–${s.max}`;
  return [
    row(['`ratios.` key', 'latest', 'each run, oldest first', 'spread', 'goal', 'verdict']),
    row(['---', '---:', '---', '---:', '---', '---']),
    ...ratiosAcrossRuns(runs.map((r) => r.report)).map((r) =>
      row([
        `\`${r.name}\``,
        valueText(r.values.at(-1) ?? null),
        r.values.map(valueText).join(' / '),
        spread(r.spread),
        r.goal,
        r.met ? `met in ${r.metIn} of ${runs.length}` : `not met (met in ${r.metIn} of ${runs.length})`,
      ]),
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

/** The block for `runs`, oldest first: the goals over all of them, the figures of the latest. */
export function figuresBlock(runs: readonly FullRun[]): string {
  const latest = runs.at(-1)!.report;
  return [machineLine(runs), '', ...verdictTable(runs), '', ...figureTable(latest.figures)].join('\n');
}

/** `doc` with everything between the markers replaced by `block`. */
export function withFigures(doc: string, block: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md has no ${START} … ${END} block`);
  return `${doc.slice(0, start + START.length)}\n\n${block}\n\n${doc.slice(end)}`;
}

async function main(): Promise<void> {
  const runs = await latestFullRuns();
  if (!runs.length) {
    console.error('no full run in bench/results/: run `pnpm bench` first (smoke runs are not figures)');
    process.exit(1);
  }
  const doc = withFigures(await readFile(DOC, 'utf8'), figuresBlock(runs));
  // The same layout `pnpm lint` checks, so a regenerated doc passes prettier --check as written.
  const formatted = await format(doc, { ...(await resolveConfig(DOC)), filepath: DOC });
  await writeFile(DOC, formatted);
  console.log(`docs/performance.md: figures of ${runs.map((r) => r.file).join(', ')}`);
  if (runs.length < RUNS) console.log(`only ${runs.length} of the ${RUNS} full runs a goal is judged over`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
