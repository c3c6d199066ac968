import { execFile as execFileCallback, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './private-redis.js';

const execFile = promisify(execFileCallback);

// A node that stops answering for this long is failed: its replica is promoted about a second after a
// master dies, which keeps a failover inside a test's patience while still being a real election.
const NODE_TIMEOUT_MS = 1_000;
// How long a node may take to start, answer or exit before the test fails instead of waiting on.
const NODE_START_DEADLINE_MS = 15_000;

// A test process that dies without its afterAll (a failed import, Ctrl-C) must not leave nodes behind.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

interface ClusterNode {
  port: number;
  dir: string;
  process: ChildProcess | undefined;
}

/**
 * A Redis Cluster of a test's own on the loopback: `masters` masters with one replica each, built from
 * the Debian `redis-server` and `redis-cli --cluster create`, in a temporary folder. A master can be
 * killed so its replica takes over (a real failover), then brought back as a replica of its successor.
 */
export class PrivateRedisCluster {
  private constructor(
    private readonly nodes: ClusterNode[],
    private readonly dir: string,
  ) {}

  static async start(masters = 3): Promise<PrivateRedisCluster> {
    const dir = await mkdtemp(path.join(tmpdir(), 'redis-cluster-'));
    const nodes = await Promise.all(
      Array.from({ length: masters * 2 }, async (_, i) => {
        const nodeDir = path.join(dir, `node-${i + 1}`);
        await mkdir(nodeDir);
        return { port: await freePort(), dir: nodeDir, process: undefined };
      }),
    );
    const cluster = new PrivateRedisCluster(nodes, dir);
    try {
      await Promise.all(nodes.map((node) => cluster.startFreshNode(node)));
      // The first `masters` addresses become masters; each of the rest replicates one of them.
      await execFile(
        'redis-cli',
        ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
        { timeout: NODE_START_DEADLINE_MS * 2 },
      );
      await cluster.waitUntilHealthy();
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /** The value of REDIS_CLUSTER_NODES: every node, so a client can start whichever masters are up. */
  get nodeList(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  /** The ports of the current masters (they change with every failover). */
  async masterPorts(): Promise<number[]> {
    const roles = await Promise.all(
      this.nodes
        .filter(isRunning)
        .map(async (node) => ((await this.info(node)).includes('role:master') ? node.port : 0)),
    );
    return roles.filter((port) => port > 0);
  }

  /**
   * Kills a master outright (SIGKILL: what it had not yet sent its replica is lost), waits until its
   * replica has been promoted and the cluster serves every slot again, waits out `downMs`, then starts
   * the old master again, which rejoins as a replica. `which` picks among the current masters.
   */
  async failOverMaster(which: number, downMs: number): Promise<{ killedPort: number }> {
    const masters = await this.masterPorts();
    const port = masters[which % masters.length]!;
    const node = this.nodes.find((n) => n.port === port)!;
    await stopProcess(node.process!);
    await this.waitUntilHealthy();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.startNode(node);
    await this.waitUntilHealthy();
    return { killedPort: port };
  }

  /** Starts any node that is down (a fault interrupted by the end of a run) and waits for a whole cluster. */
  async ensureAllUp(): Promise<void> {
    await Promise.all(this.nodes.filter((n) => !isRunning(n)).map((n) => this.startNode(n)));
    await this.waitUntilHealthy();
  }

  async destroy(): Promise<void> {
    await Promise.all(this.nodes.filter(isRunning).map((n) => stopProcess(n.process!)));
    await rm(this.dir, { recursive: true, force: true });
  }

  private async startNode(node: ClusterNode): Promise<void> {
    node.process = spawn('redis-server', nodeArguments(node), { stdio: 'ignore' });
    const child = node.process;
    running.add(child);
    child.once('exit', () => running.delete(child));
    const probe = new Redis({
      port: node.port,
      lazyConnect: true,
      retryStrategy: () => 50,
      maxRetriesPerRequest: null,
    });
    probe.on('error', () => undefined);
    // A node that never answers fails the test at once instead of stalling the run: a server that exited
    // (its port taken between freePort and the bind) or one that is still silent after the deadline.
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`redis-server on port ${node.port} exited (${signal ?? `code ${code}`}) before it answered`)),
      ),
    );
    try {
      await withDeadline(
        Promise.race([
          probe
            .connect()
            .catch(() => undefined)
            .then(() => probe.ping()),
          exited,
        ]),
        NODE_START_DEADLINE_MS,
        `redis-server on port ${node.port} did not answer`,
      );
    } catch (error) {
      await stopProcess(child);
      throw error;
    } finally {
      exited.catch(() => undefined);
      probe.disconnect();
    }
  }

  /** A new node: when its port was taken since freePort chose it, it starts once more on another. */
  private async startFreshNode(node: ClusterNode): Promise<void> {
    try {
      await this.startNode(node);
    } catch {
      node.port = await freePort();
      await this.startNode(node);
    }
  }

  /** Every running node sees the cluster as ok, every slot served, every master with a live replica. */
  private async waitUntilHealthy(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const running = this.nodes.filter(isRunning);
      const infos = await Promise.all(
        running.map((n) => this.clusterInfo(n).catch((e: unknown) => (e as Error).message)),
      );
      const roles = await Promise.all(running.map((n) => this.info(n).catch(() => '')));
      const masters = roles.filter((r) => r.includes('role:master'));
      const ok =
        infos.every((i) => i.includes('cluster_state:ok') && i.includes('cluster_slots_ok:16384')) &&
        masters.length === this.nodes.length / 2 &&
        (running.length < this.nodes.length || masters.every((r) => /connected_slaves:[1-9]/.test(r))) &&
        roles.filter((r) => r.includes('role:slave')).every((r) => r.includes('master_link_status:up'));
      if (ok) return;
      if (Date.now() > deadline) {
        const seen = infos.join(' | ').replace(/\s+/g, ' ').slice(0, 600);
        throw new Error(`the Redis Cluster did not become healthy: ${seen}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async clusterInfo(node: ClusterNode): Promise<string> {
    return this.command(node, (r) => r.cluster('INFO'));
  }

  private async info(node: ClusterNode): Promise<string> {
    return this.command(node, (r) => r.info('replication'));
  }

  private async command(node: ClusterNode, run: (redis: Redis) => Promise<string>): Promise<string> {
    const redis = new Redis({
      port: node.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 2_000,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await run(redis);
    } finally {
      redis.disconnect();
    }
  }
}

function isRunning(node: ClusterNode): boolean {
  return node.process !== undefined && node.process.exitCode === null && node.process.signalCode === null;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await withDeadline(exited, NODE_START_DEADLINE_MS, `redis-server ${child.pid} did not exit after SIGKILL`);
}

function nodeArguments(node: ClusterNode): string[] {
  return [
    '--port',
    String(node.port),
    '--bind',
    '127.0.0.1',
    '--dir',
    node.dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(NODE_TIMEOUT_MS),
    // A replica is promoted however long it was out of touch: a short test must fail over every time.
    '--cluster-replica-validity-factor',
    '0',
  ];
}

/** Every wait on a node has an end, so a node that hangs fails its test with the reason, never the run. */
async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
