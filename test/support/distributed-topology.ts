import pg from 'pg';
import { PrivatePgBouncer } from './private-pgbouncer.js';
import { PrivatePostgres } from './private-postgres.js';
import { PrivateRedisCluster } from './private-redis-cluster.js';

/**
 * The topology past one machine (docs/scaling.md), all on this machine's loopback from the Debian
 * binaries: a Redis Cluster of three masters with a replica each, a PostgreSQL primary with one streaming
 * replica (pg_basebackup), and PgBouncer in transaction pooling mode in front of the primary. The apps
 * reach it through {@link DistributedTopology.appEnv}; its faults are the ones that topology adds: a Redis
 * master failing over, the replica falling behind, PgBouncer restarting.
 */
export class DistributedTopology {
  private constructor(
    readonly redis: PrivateRedisCluster,
    readonly primary: PrivatePostgres,
    readonly replica: PrivatePostgres,
    readonly pgbouncer: PrivatePgBouncer,
  ) {}

  static async start(): Promise<DistributedTopology> {
    const started: { destroy(): Promise<void> }[] = [];
    try {
      const [redis, primary] = await Promise.all([
        PrivateRedisCluster.start(3).then((r) => (started.push(r), r)),
        PrivatePostgres.start().then((p) => (started.push(p), p)),
      ]);
      const [replica, pgbouncer] = await Promise.all([
        PrivatePostgres.startReplicaOf(primary).then((r) => (started.push(r), r)),
        PrivatePgBouncer.start(primary.port).then((b) => (started.push(b), b)),
      ]);
      return new DistributedTopology(redis, primary, replica, pgbouncer);
    } catch (error) {
      await Promise.all(started.map((s) => s.destroy().catch(() => undefined)));
      throw error;
    }
  }

  /**
   * The variables that put an app on this topology: writes through PgBouncer, lookups on the replica,
   * queues and rate limits on the cluster (REDIS_URL is left pointing nowhere, so a Redis user that
   * ignored the cluster would fail rather than quietly use some other Redis).
   */
  appEnv(database = 'payouts'): Record<string, string> {
    return {
      DATABASE_URL: this.pgbouncer.url(database),
      READ_DATABASE_URL: onDatabase(this.replica.databaseUrl, database),
      REDIS_CLUSTER_NODES: this.redis.nodeList,
      REDIS_URL: 'redis://127.0.0.1:1',
    };
  }

  /** The primary directly, for a test's or the soak's own reads and checks (never through PgBouncer). */
  primaryUrl(database = 'payouts'): string {
    return onDatabase(this.primary.databaseUrl, database);
  }

  /**
   * A further migrated database (a copy of `payouts`), so two groups of tests on one topology never see
   * each other's payouts — a worker's sweeper queues every overdue payout of its database. The replica
   * gets it through replication like everything else.
   */
  async createDatabase(name: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.primary.serverUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE payouts`);
    } finally {
      await client.end();
    }
  }

  /** Kills a Redis master; its replica takes over; the old master returns as a replica after `downMs`. */
  async failOverRedisMaster(which: number, downMs: number): Promise<void> {
    await this.redis.failOverMaster(which, downMs);
  }

  /**
   * Stops the replica replaying WAL for `downMs` (it keeps receiving it): the replica lags behind the
   * primary by everything written meanwhile, as a replica under load or on a slow link does.
   */
  async lagReplica(downMs: number): Promise<void> {
    await this.onReplica('SELECT pg_wal_replay_pause()');
    try {
      await new Promise((resolve) => setTimeout(resolve, downMs));
    } finally {
      await this.onReplica('SELECT pg_wal_replay_resume()');
    }
  }

  /** Pauses the replica's replay until {@link resumeReplica}, for a test that looks up during the lag. */
  async pauseReplica(): Promise<void> {
    await this.onReplica('SELECT pg_wal_replay_pause()');
  }

  async resumeReplica(): Promise<void> {
    await this.onReplica('SELECT pg_wal_replay_resume()');
  }

  /** Kills PgBouncer (every pooled connection drops mid-transaction) and starts it again after `downMs`. */
  async restartPgBouncer(downMs: number): Promise<void> {
    await this.pgbouncer.stop();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.pgbouncer.resume();
  }

  /** Crashes the primary (immediate stop); the replica and PgBouncer reconnect once it is back. */
  async restartPrimary(downMs: number): Promise<void> {
    await this.primary.stop('immediate');
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.primary.resume();
  }

  /** Brings back anything a fault left down, and lets the replica replay again. */
  async ensureAllUp(): Promise<void> {
    await this.primary.resume();
    await Promise.all([this.redis.ensureAllUp(), this.pgbouncer.resume(), this.replica.resume()]);
    await this.resumeReplica();
  }

  async destroy(): Promise<void> {
    await this.pgbouncer.destroy();
    await Promise.all([this.redis.destroy(), this.replica.destroy()]);
    await this.primary.destroy();
  }

  private async onReplica(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.replica.databaseUrl, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}

function onDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
