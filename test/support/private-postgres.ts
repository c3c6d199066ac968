import { execFile as execFileCallback, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { defaultMigrationsDir, migrate } from '@payout/db';
import { freePort } from './private-redis.js';

const execFile = promisify(execFileCallback);

export interface PrivatePostgresOptions {
  /** The server's max_connections (default 100), for tests that run it out of connection slots. */
  maxConnections?: number;
}

// A streaming replica keeps its standby.signal across restarts; a primary never has one of its own.
type ServerOptions = PrivatePostgresOptions & { standby?: boolean };

type ServerUser = { uid: number; gid: number } | undefined;

// initdb and postgres refuse to run as root: as root, the server runs as the `postgres` OS user.
function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

// A server left running by a test process that died without its afterAll would hold its port and folder
// for ever; an immediate stop on exit is all that can still be done synchronously.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGQUIT');
});

/**
 * A PostgreSQL server of a test's own (in a temporary folder, on a free port), migrated, so a test can
 * crash and restart the database without touching the shared server. `fsync` is off: a stopped process
 * loses nothing the operating system already has, which is the failure being tested; a machine losing
 * power is not.
 */
export class PrivatePostgres {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly options: ServerOptions,
    private readonly user: ServerUser,
  ) {}

  /** A copy of the migrated template cluster, started; the database `payouts` is ready to use. */
  static async start(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
    const user = serverUser();
    await (abandonedReaped ??= reapAbandoned());
    const template = await migratedTemplate(user);
    const dir = await ownedTempDir(tmpdir(), DIR_PREFIX, user);
    await writeFile(path.join(dir, OWNER_FILE), String(process.pid));
    // cp -a keeps the owner and the 0700 mode PostgreSQL insists on.
    await execFile('cp', ['-a', template, path.join(dir, 'data')]);
    const server = new PrivatePostgres(await freePort(), dir, options, user);
    await server.resume();
    return server;
  }

  /**
   * A streaming replica of `primary` (a `pg_basebackup -R` copy), started as a hot standby on a free
   * port: it answers read-only queries with whatever it has replayed so far, and follows the primary
   * through the primary's restarts.
   */
  static async startReplicaOf(primary: PrivatePostgres): Promise<PrivatePostgres> {
    const user = primary.user;
    const dir = await ownedTempDir(tmpdir(), DIR_PREFIX, user);
    await writeFile(path.join(dir, OWNER_FILE), String(process.pid));
    await execFile(
      'pg_basebackup',
      ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', path.join(dir, 'data')].concat([
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]),
      { ...user },
    );
    const replica = new PrivatePostgres(await freePort(), dir, { ...primary.options, standby: true }, user);
    await replica.resume();
    return replica;
  }

  /** The migrated database the apps use. */
  get databaseUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/payouts`;
  }

  /** The maintenance database, for connecting while `payouts` is busy or before it exists. */
  get serverUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  private get standbySignal(): string {
    return path.join(this.dataDir, 'standby.signal');
  }

  /** Starts (or restarts, running crash recovery if it was killed) and waits until it accepts queries. */
  async resume(): Promise<void> {
    if (this.running) return;
    if (!this.options.standby) await rm(this.standbySignal, { force: true });
    this.spawnServer([]);
    await this.waitUntil('ready');
  }

  /**
   * Starts the server as a standby that never finishes recovery, so it is up but answers every connection
   * with SQLSTATE 57P03 ("the database system is not accepting connections"), as a server still
   * recovering does. `stop()` then `resume()` brings it back as the primary it was.
   */
  async resumeRefusingConnections(): Promise<void> {
    if (this.running) return;
    await writeFile(this.standbySignal, '');
    this.spawnServer(['-c', 'hot_standby=off']);
    await this.waitUntil('refusing');
  }

  /**
   * Stops the server. `immediate` is a crash: every backend quits at once, open transactions are lost and
   * the next start runs crash recovery. `fast` rolls back open transactions and shuts down cleanly.
   */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stop('immediate');
    await rm(this.dir, { recursive: true, force: true });
  }

  /** The tail of the server's log, for a failure message. */
  async logTail(lines = 30): Promise<string> {
    const text = await readFile(path.join(this.dir, 'postgres.log'), 'utf8').catch(() => '');
    return text.split('\n').slice(-lines).join('\n');
  }

  private spawnServer(extra: string[]): void {
    this.process = spawnPostgres(this.dir, this.port, this.user, [
      '-c',
      `max_connections=${this.options.maxConnections ?? 100}`,
      ...extra,
    ]);
  }

  private async waitUntil(state: 'ready' | 'refusing', timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new pg.Client({ connectionString: this.serverUrl, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        if (state === 'ready') return;
        throw new Error('the server accepted a connection while it should refuse them');
      } catch (error) {
        if (state === 'refusing' && (error as { code?: unknown }).code === '57P03') return;
        if (!this.running || Date.now() > deadline) {
          throw new Error(`private PostgreSQL did not start: ${(error as Error).message}\n${await this.logTail()}`, {
            cause: error,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}

function spawnPostgres(dir: string, port: number, user: ServerUser, extra: string[]): ChildProcess {
  const log = openSync(path.join(dir, 'postgres.log'), 'a');
  const child = spawn(
    'postgres',
    [
      '-D',
      path.join(dir, 'data'),
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      ...extra,
    ],
    { stdio: ['ignore', log, log], ...user },
  );
  closeSync(log); // the server has its own copy of the descriptor
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

async function ownedTempDir(parent: string, prefix: string, user: ServerUser): Promise<string> {
  const dir = await mkdtemp(path.join(parent, prefix));
  if (user) await chown(dir, user.uid, user.gid);
  return dir;
}

const DIR_PREFIX = 'postgres-';
const OWNER_FILE = 'owner.pid';
let abandonedReaped: Promise<void> | undefined;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A test process killed outright (a hook time-out, Ctrl-C twice) leaves its server running and its folder
 * behind. Once per process, any server whose owning process is gone is stopped and its folder removed.
 */
async function reapAbandoned(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = path.join(tmpdir(), name);
    const owner = Number(await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => 'NaN'));
    if (!Number.isInteger(owner) || isAlive(owner)) continue;
    const postmaster = await readFile(path.join(dir, 'data', 'postmaster.pid'), 'utf8').catch(() => '');
    const pid = Number(postmaster.split('\n')[0]);
    // Only the server of that folder: a pid in a stale file may belong to another process by now.
    const command = pid > 0 ? await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '') : '';
    if (command.includes(dir)) process.kill(pid, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
}

const TEMPLATE_ROOT = path.join(tmpdir(), 'payout-postgres-templates');

/**
 * A cluster initialised and migrated once per set of migrations, shared by every private server (each
 * starts from a copy): initdb and migrating cost seconds, copying a fraction of one. Keyed by the
 * migrations' content, so a new migration builds a new template.
 */
async function migratedTemplate(user: ServerUser): Promise<string> {
  const migrationsDir = defaultMigrationsDir();
  const hash = createHash('sha256');
  for (const name of (await readdir(migrationsDir)).sort()) {
    const file = path.join(migrationsDir, name, 'migration.sql');
    if (existsSync(file)) hash.update(name).update(await readFile(file));
  }
  const key = hash.digest('hex').slice(0, 16);
  const ready = path.join(TEMPLATE_ROOT, key);
  if (existsSync(path.join(ready, 'ready'))) return path.join(ready, 'data');

  await mkdir(TEMPLATE_ROOT, { recursive: true, mode: 0o755 });
  const building = await ownedTempDir(TEMPLATE_ROOT, `${key}.building-`, user);
  const initdb = spawn(
    'initdb',
    ['-D', path.join(building, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
    { stdio: ['ignore', 'ignore', 'pipe'], ...user },
  );
  let stderr = '';
  initdb.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => initdb.once('exit', resolve));
  if (code !== 0) throw new Error(`initdb failed (${code}): ${stderr}`);

  const port = await freePort();
  const server = spawnPostgres(building, port, user, []);
  try {
    const databaseUrl = `postgresql://postgres@127.0.0.1:${port}/payouts`;
    for (let attempt = 0; ; attempt++) {
      try {
        await migrate({ databaseUrl, migrationsDir });
        break;
      } catch (error) {
        // Refused or "starting up" until the server is listening.
        if (attempt > 200 || server.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT'); // a clean shutdown: the copies start without recovery
    await exited;
  }
  await writeFile(path.join(building, 'ready'), '');
  await rename(building, ready).catch(async () => {
    // Another test process built the same template first: use theirs.
    await rm(building, { recursive: true, force: true });
  });
  return path.join(ready, 'data');
}
