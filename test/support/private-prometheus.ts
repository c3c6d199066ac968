import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { eventually } from './eventually.js';
import { freePort } from './private-redis.js';

/** One alert as Prometheus's /api/v1/alerts lists it (pending or firing; a resolved alert is not listed). */
export interface PrometheusAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  /** When its condition became true (RFC 3339). */
  activeAt: string;
}

/** One series of an instant query's answer. */
export interface PrometheusSample {
  metric: Record<string, string>;
  value: [number, string];
}

/**
 * A Prometheus of a test's own (Debian's `prometheus` package): its own folder, storage and port. The test
 * gives the configuration and any files it names (rules), written into the folder beside it.
 */
export class PrivatePrometheus {
  private output = '';

  private constructor(
    readonly url: string,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-4_000)));
  }

  static async start(config: object, files: Record<string, string> = {}): Promise<PrivatePrometheus> {
    const dir = await mkdtemp(path.join(tmpdir(), 'prometheus-'));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    await writeFile(path.join(dir, 'prometheus.yml'), stringify(config));
    const port = await freePort();
    const child = spawn(
      'prometheus',
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const prometheus = new PrivatePrometheus(`http://127.0.0.1:${port}`, dir, child);
    await eventually(
      () =>
        fetch(`${prometheus.url}/-/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      { timeoutMs: 20_000, what: `Prometheus to be ready (its log: ${prometheus.output})` },
    );
    return prometheus;
  }

  async api<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${this.url}/api/v1/${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus refused ${pathAndQuery}: ${body.error}`);
    return body.data;
  }

  /** The alerts pending or firing now. */
  async alerts(): Promise<PrometheusAlert[]> {
    return (await this.api<{ alerts: PrometheusAlert[] }>('alerts')).alerts;
  }

  /** An instant query's series (a vector answer). */
  async query(promql: string): Promise<PrometheusSample[]> {
    return (await this.api<{ result: PrometheusSample[] }>(`query?query=${encodeURIComponent(promql)}`)).result;
  }

  /** The scrape targets Prometheus knows, with their health. */
  async targets(): Promise<{ labels: Record<string, string>; health: string; lastError: string }[]> {
    return (
      await this.api<{ activeTargets: { labels: Record<string, string>; health: string; lastError: string }[] }>(
        'targets',
      )
    ).activeTargets;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
