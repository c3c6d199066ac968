import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './private-redis.js';

// PgBouncer refuses to run as root: as root, it runs as the `postgres` OS user, like the servers.
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

// A test process that dies without its afterAll (a failed import, Ctrl-C) must not leave PgBouncer behind.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * PgBouncer (Debian's package) of a test's own in front of a PostgreSQL server, in transaction pooling
 * mode: a client's transactions may each run on a different server connection, so nothing may rely on
 * session state (docs/scaling.md "PgBouncer"). It can be killed and restarted on the same port.
 */
export class PrivatePgBouncer {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  /** Pools every database of the server on `serverPort`, each as the user postgres. */
  static async start(serverPort: number): Promise<PrivatePgBouncer> {
    const user = serverUser();
    const dir = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
    if (user) await chown(dir, user.uid, user.gid);
    const port = await freePort();
    const ini = [
      '[databases]',
      // Any database of the server, by its own name.
      `* = host=127.0.0.1 port=${serverPort} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      // The server trusts loopback connections; PgBouncer logs every client in as the user above.
      'auth_type = any',
      'pool_mode = transaction',
      // The API sends statement_timeout and lock_timeout as startup `options`, which PgBouncer cannot hand on
      // to pooled server connections; as docs/operations.md ("When a dependency hangs") tells operators, it
      // ignores them (in production the database role carries the time-outs instead).
      'ignore_startup_parameters = options',
      'max_client_conn = 2000',
      'default_pool_size = 40',
      'server_connect_timeout = 2',
      'server_login_retry = 1',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    ].join('\n');
    await writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`);
    if (user) await chown(path.join(dir, 'pgbouncer.ini'), user.uid, user.gid);
    const bouncer = new PrivatePgBouncer(port, dir, user);
    await bouncer.resume();
    return bouncer;
  }

  /** A URL of a pooled database, as DATABASE_URL. */
  url(database = 'payouts'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Starts (or restarts) PgBouncer and waits until a query passes through it. */
  async resume(): Promise<void> {
    if (this.running) return;
    await rm(path.join(this.dir, 'pgbouncer.pid'), { force: true });
    const child = spawn('pgbouncer', [path.join(this.dir, 'pgbouncer.ini')], { stdio: 'ignore', ...this.user });
    this.process = child;
    running.add(child);
    child.once('exit', () => running.delete(child));
    const deadline = Date.now() + 20_000;
    for (;;) {
      // The maintenance database: a pooled connection left to `payouts` would stop it serving as a template.
      const client = new pg.Client({ connectionString: this.url('postgres'), connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (child.exitCode !== null || Date.now() > deadline) {
          const log = await readFile(path.join(this.dir, 'pgbouncer.log'), 'utf8').catch(() => '');
          throw new Error(
            `PgBouncer did not start: ${(error as Error).message}\n${log.split('\n').slice(-20).join('\n')}`,
            { cause: error },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  /** Kills PgBouncer (SIGKILL: every client and server connection drops mid-transaction). */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
