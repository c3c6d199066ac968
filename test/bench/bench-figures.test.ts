import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RATIO_GOALS, type Ratios } from '../../bench/ratios.js';
import { figuresBlock, latestFullRuns, ratiosAcrossRuns, type FullRun } from '../../scripts/bench-figures.js';

// "Current figures" judges each goal over the latest three full runs (docs/performance.md, "Targets").

/** A results file's report, cut down to what `pnpm bench:figures` reads. */
function report(
  startedAt: string,
  ratios: Partial<Ratios>,
  kind: { smoke?: boolean; stage?: string } = {},
): FullRun['report'] {
  return {
    startedAt,
    elapsedS: 900,
    plan: { smoke: kind.smoke ?? false },
    stage: kind.stage ?? null,
    machine: {
      cpus: 2,
      cpuModel: 'AMD EPYC',
      memoryGb: 24,
      node: 'v20.20.2',
      postgres: '15.20',
      othersCpu: { mean: Number(startedAt.slice(14, 16)) / 100, max: 0.3 },
    },
    ratios,
    figures: [],
  } as unknown as FullRun['report'];
}

// The oldest run predates apiCpuPerAcceptToReference and bulkPayoutsLeftToSweeper; the middle one could not
// measure p99AtHalfLoadMs.
const OLDEST = report('2026-12-01T10:05:00.000Z', {
  acceptSpreadToReference: 0.92,
  lookupToReference: 0.9,
  p99AtHalfLoadMs: 41.3,
});
const MIDDLE = report('2026-12-02T10:11:00.000Z', {
  acceptSpreadToReference: 0.88,
  lookupToReference: 0.86,
  apiCpuPerAcceptToReference: 1.4,
  bulkPayoutsLeftToSweeper: 0,
  p99AtHalfLoadMs: null,
});
const LATEST = report('2026-12-03T10:08:00.000Z', {
  acceptSpreadToReference: 0.95,
  lookupToReference: 0.87,
  apiCpuPerAcceptToReference: 1.2,
  bulkPayoutsLeftToSweeper: 0,
  p99AtHalfLoadMs: 45,
});

describe('each goal over the latest full runs', () => {
  const rows = ratiosAcrossRuns([OLDEST, MIDDLE, LATEST]);
  const of = (name: keyof Ratios) => rows.find((r) => r.name === name);

  it('when all three met it, then it is met in 3 of 3, with the spread of their values', () => {
    expect(of('lookupToReference')).toEqual({
      name: 'lookupToReference',
      values: [0.9, 0.86, 0.87],
      spread: { min: 0.86, max: 0.9 },
      goal: '≥ 0.85',
      metIn: 3,
      met: true,
    });
  });

  it('when one run missed it, then it is not met, even if the latest met it', () => {
    expect(of('acceptSpreadToReference')).toMatchObject({
      values: [0.92, 0.88, 0.95],
      spread: { min: 0.88, max: 0.95 },
      goal: '≥ 0.9',
      metIn: 2,
      met: false,
    });
  });

  it('when a run predates the key, then that run is not measured and counts as not met', () => {
    expect(of('apiCpuPerAcceptToReference')).toMatchObject({
      values: [null, 1.4, 1.2],
      spread: { min: 1.2, max: 1.4 },
      goal: '≤ 1.5',
      metIn: 2,
      met: false,
    });
    expect(of('bulkPayoutsLeftToSweeper')).toMatchObject({
      values: [null, 0, 0],
      spread: { min: 0, max: 0 },
      metIn: 2,
      met: false,
    });
  });

  it('when a run could not measure it, then that run counts as not met', () => {
    expect(of('p99AtHalfLoadMs')).toMatchObject({ values: [41.3, null, 45], metIn: 2, met: false });
  });

  it('when no run measured it, then it has no spread and is met in none', () => {
    expect(of('workerPeakRssMb')).toMatchObject({ values: [null, null, null], spread: null, metIn: 0, met: false });
  });

  it('when listed, then every goal of bench/ratios.ts is there, in its order', () => {
    expect(rows.map((r) => r.name)).toEqual(Object.keys(RATIO_GOALS));
  });
});

describe('the figures block', () => {
  it('when three runs are given, then each ratio shows the latest, each run, the spread and the verdict', () => {
    const block = figuresBlock([
      { file: 'a.json', report: OLDEST },
      { file: 'b.json', report: MIDDLE },
      { file: 'c.json', report: LATEST },
    ]);
    expect(block).not.toContain('Only');
    expect(block).toContain(
      '`bench/results/a.json` (0.05), `bench/results/b.json` (0.11), `bench/results/c.json` (0.08)',
    );
    expect(block).toContain('| `lookupToReference` | 0.87 | 0.9 / 0.86 / 0.87 | 0.86–0.9 | ≥ 0.85 | met in 3 of 3 |');
    expect(block).toContain(
      '| `apiCpuPerAcceptToReference` | 1.2 | not measured / 1.4 / 1.2 | 1.2–1.4 | ≤ 1.5 | not met (met in 2 of 3) |',
    );
  });

  it('when fewer than three runs exist, then it says so', () => {
    const block = figuresBlock([{ file: 'c.json', report: LATEST }]);
    expect(block).toMatch(/^Only 1 full run so far, where a goal is judged over 3\./);
    expect(block).toContain('| `lookupToReference` | 0.87 | 0.87 | 0.87 | ≥ 0.85 | not met (met in 1 of 1) |');
  });
});

describe('the runs read from the results folder', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function resultsDir(files: Record<string, FullRun['report']>): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'bench-results-'));
    for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), JSON.stringify(content));
    return dir;
  }

  it('when newer smoke and stage runs sit among full ones, then the latest three full runs are read, oldest first', async () => {
    const folder = await resultsDir({
      '2026-11-30T10-00-00-000Z.json': report('2026-11-30T10:00:00.000Z', {}),
      '2026-12-01T10-05-00-000Z.json': OLDEST,
      '2026-12-02T09-00-00-000Z.json': report('2026-12-02T09:00:00.000Z', {}, { smoke: true }),
      '2026-12-02T10-11-00-000Z.json': MIDDLE,
      '2026-12-03T10-08-00-000Z.json': LATEST,
      '2026-12-04T10-00-00-000Z.json': report('2026-12-04T10:00:00.000Z', {}, { stage: 'accept' }),
    });
    await writeFile(join(folder, '.gitkeep'), '');
    const runs = await latestFullRuns(folder);
    expect(runs.map((r) => r.file)).toEqual([
      '2026-12-01T10-05-00-000Z.json',
      '2026-12-02T10-11-00-000Z.json',
      '2026-12-03T10-08-00-000Z.json',
    ]);
    expect(runs[2]!.report.ratios).toEqual(LATEST.ratios);
  });

  it('when only two full runs exist, then both are read', async () => {
    const folder = await resultsDir({
      '2026-12-01T10-05-00-000Z.json': OLDEST,
      '2026-12-03T10-08-00-000Z.json': LATEST,
      '2026-12-04T10-00-00-000Z.json': report('2026-12-04T10:00:00.000Z', {}, { smoke: true }),
    });
    expect((await latestFullRuns(folder)).map((r) => r.file)).toEqual([
      '2026-12-01T10-05-00-000Z.json',
      '2026-12-03T10-08-00-000Z.json',
    ]);
  });
});
