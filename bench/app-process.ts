import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ORPHAN_GUARD = fileURLToPath(new URL('./orphan-guard.mjs', import.meta.url));
const RSS_SAMPLE_MS = 1_000;

export interface LoggedProblem {
  count: number;
  first: string;
}

/** The service's apps, and the bench's own reference server (bench/reference-server.ts). */
export type AppName = 'api' | 'worker' | 'rail-sim' | 'reference';

export interface RssSample {
  /** Seconds since the process started. */
  atS: number;
  rssMb: number;
}

/** Memory of one process over its life, as the kernel counted it. */
export interface MemoryReport {
  name: string;
  /** VmHWM: the most resident memory the process ever had. */
  peakRssMb: number;
  samples: RssSample[];
}

/**
 * One app as its own OS process — as it runs in production, `node apps/<app>/dist/main.js` (built by
 * `pnpm build`), or from its TypeScript sources under tsx for a quick smoke run — plus the orphan guard,
 * with its resident memory sampled every second and its warnings counted.
 */
export class AppProcess {
  private static readonly live = new Set<AppProcess>();
  readonly samples: RssSample[] = [];
  /** Log lines at warn or above, by message, with the first such line: a figure is suspect if its run logged problems. */
  readonly problems = new Map<string, LoggedProblem>();
  /** Lines the process has written on stdout and stderr so far. */
  lines = 0;
  private readonly tail: string[] = [];
  private readonly startedAt = Date.now();
  private peakKb = 0;
  private readonly sampler: NodeJS.Timeout;
  readonly exited: Promise<void>;
  private hasExited = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    AppProcess.live.add(this);
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.hasExited = true;
        AppProcess.live.delete(this);
        resolve();
      }),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.onLine(line));
    }
    this.sampler = setInterval(() => this.sample(), RSS_SAMPLE_MS);
    this.sampler.unref();
  }

  static start(
    name: string,
    app: AppName,
    env: Record<string, string>,
    nodeOptions: string[] = [],
    fromSources = false,
  ): AppProcess {
    // Compiled apps run with the production image's memory budget (Dockerfile, NODE_OPTIONS).
    const memoryBudget = fromSources ? [] : ['--max-old-space-size=128'];
    // The reference server is not built by `pnpm build`: it always runs from its source under tsx (the
    // loader's cost is paid at start, not per request).
    const entry =
      app === 'reference'
        ? ['--conditions=source', '--import', 'tsx', '--import', ORPHAN_GUARD, 'bench/reference-server.ts']
        : fromSources
          ? ['--conditions=source', '--import', 'tsx', '--import', ORPHAN_GUARD, `apps/${app}/src/main.ts`]
          : ['--import', ORPHAN_GUARD, `apps/${app}/dist/main.js`];
    const child = spawn(process.execPath, [...memoryBudget, ...nodeOptions, ...entry], {
      cwd: ROOT,
      // A bench run, like a test run: the placeholder secrets are accepted (refused when NODE_ENV is unset).
      env: { ...process.env, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(name, child);
  }

  /** Kills every app process still running, at once (for process exit, when nothing can be awaited). */
  static killAll(): void {
    for (const app of AppProcess.live) app.child.kill('SIGKILL');
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves once `url` answers 200; fails if the process exits first or `timeoutMs` passes. */
  async ready(url: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.hasExited) throw new Error(`${this.name} exited while starting:\n${this.recentOutput()}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
        await response.arrayBuffer();
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.name} did not answer ${url} within ${timeoutMs} ms:\n${this.recentOutput()}`);
  }

  /** Stops the process the way an operator would (SIGTERM, so it finishes work in flight), then for sure. */
  async stop(graceMs = 30_000): Promise<MemoryReport> {
    this.sample();
    clearInterval(this.sampler);
    if (!this.hasExited) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.memory();
  }

  memory(): MemoryReport {
    return { name: this.name, peakRssMb: round(this.peakKb / 1024), samples: [...this.samples] };
  }

  recentOutput(): string {
    return this.tail.join('\n');
  }

  private sample(): void {
    if (this.hasExited) return;
    let status: string;
    try {
      status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return; // Gone between the check and the read.
    }
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    this.peakKb = Math.max(this.peakKb, kb('VmHWM'));
    this.samples.push({ atS: round((Date.now() - this.startedAt) / 1000), rssMb: round(kb('VmRSS') / 1024) });
  }

  private onLine(line: string): void {
    this.lines++;
    this.tail.push(line);
    if (this.tail.length > 40) this.tail.shift();
    // pino's lines begin with their level: those below warn are skipped unparsed, so an API logging a line per
    // request costs the bench (on the same cores) as little as a log shipper would (bench/lookup-logging.ts).
    if (line.startsWith('{"level":') && Number(line.slice(9, 11)) < 40) return;
    let entry: { level?: unknown; msg?: unknown; code?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      entry = { level: 50, msg: line };
    }
    if (typeof entry.level === 'number' && entry.level >= 40) {
      const msg = typeof entry.msg === 'string' ? entry.msg : line.slice(0, 120);
      const key = typeof entry.code === 'string' ? `${msg} (${entry.code})` : msg;
      const seen = this.problems.get(key);
      if (seen) seen.count++;
      else this.problems.set(key, { count: 1, first: line.slice(0, 500) });
    }
  }
}

/** RSS from one sample to a later one of the same process. */
export interface RssGrowth {
  afterWarmupMb: number;
  lastMb: number;
  seconds: number;
}

/** How RSS changed between two samples of one process. */
export function rssGrowth(from: RssSample | undefined, to: RssSample | undefined): RssGrowth {
  return {
    afterWarmupMb: from?.rssMb ?? 0,
    lastMb: to?.rssMb ?? 0,
    seconds: from && to ? Math.round(to.atS - from.atS) : 0,
  };
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
