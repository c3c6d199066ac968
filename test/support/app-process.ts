import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One of the apps running as a real operating-system process (as `pnpm start` runs it), for tests that
 * kill, signal or scale processes. Its JSON log lines are kept and can be awaited.
 */
export class AppProcess {
  readonly lines: Record<string, unknown>[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters: { match: (line: Record<string, unknown>) => boolean; resolve: () => void }[] = [];

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { msg: text };
      }
      this.lines.push(line);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(line)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
    createInterface({ input: child.stderr! }).on('line', (text) => this.lines.push({ stderr: text }));
  }

  /** Starts `apps/<app>/src/main.ts` with these environment variables on top of the test file's. */
  static start(app: 'api' | 'worker' | 'rail-sim', env: Record<string, string>): AppProcess {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', `apps/${app}/src/main.ts`], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(app, child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves at the first log line (from now on, or already logged) whose `msg` is `message`. */
  async logged(message: string, timeoutMs = 20_000): Promise<void> {
    const match = (line: Record<string, unknown>) => line.msg === message;
    if (this.lines.some(match)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.name} did not log "${message}" within ${timeoutMs} ms:\n${this.tail()}`));
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      void this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited before logging "${message}":\n${this.tail()}`));
      });
    });
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Makes sure the process is gone (for afterAll). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  tail(lines = 20): string {
    return this.lines
      .slice(-lines)
      .map((l) => JSON.stringify(l))
      .join('\n');
  }
}
