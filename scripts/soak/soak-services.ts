import { DistributedTopology } from '../../test/support/distributed-topology.js';
import { PrivatePostgres } from '../../test/support/private-postgres.js';
import { PrivateRedis } from '../../test/support/private-redis.js';
import type { PlannedFault } from './fault-schedule.js';

/**
 * What the soak's apps run on: PostgreSQL and Redis, private to the run. The single box is one server of
 * each; the distributed topology is docs/scaling.md's next step (Redis Cluster, PgBouncer, a replica).
 * Each takes the faults of its own parts; the apps' faults are the soak cluster's.
 */
export interface SoakServices {
  /** Variables that point every app at these services. */
  appEnv(): Record<string, string>;
  /** The primary itself, for the soak's own reads and checks. */
  readonly databaseUrl: string;
  /** Where everything listens, for the progress log. */
  describe(): string;
  /** Takes the fault's part down for `downMs` and brings it back; false when the part is not a service. */
  inject(fault: PlannedFault): Promise<boolean>;
  /** Brings back anything left down, so the drain has every part. */
  ensureAllUp(): Promise<void>;
  destroy(): Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One PostgreSQL and one Redis, as on one machine. */
export class SingleBoxServices implements SoakServices {
  private constructor(
    private readonly postgres: PrivatePostgres,
    private readonly redis: PrivateRedis,
  ) {}

  static async start(): Promise<SingleBoxServices> {
    const [postgres, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
    return new SingleBoxServices(postgres, redis);
  }

  appEnv(): Record<string, string> {
    return { DATABASE_URL: this.postgres.databaseUrl, REDIS_URL: this.redis.url };
  }

  get databaseUrl(): string {
    return this.postgres.databaseUrl;
  }

  describe(): string {
    return `PostgreSQL :${this.postgres.port}, Redis :${this.redis.port}`;
  }

  async inject(fault: PlannedFault): Promise<boolean> {
    if (fault.kind === 'restart-redis') {
      await this.redis.stop();
      await pause(fault.downMs);
      await this.redis.resume();
      return true;
    }
    if (fault.kind === 'restart-postgres') {
      await this.postgres.stop('immediate');
      await pause(fault.downMs);
      await this.postgres.resume();
      return true;
    }
    return false;
  }

  async ensureAllUp(): Promise<void> {
    await this.postgres.resume();
  }

  async destroy(): Promise<void> {
    await this.redis.destroy();
    await this.postgres.destroy();
  }
}

/** The distributed topology: a Redis Cluster, PgBouncer before the primary, a streaming replica. */
export class DistributedServices implements SoakServices {
  private constructor(private readonly topology: DistributedTopology) {}

  static async start(): Promise<DistributedServices> {
    return new DistributedServices(await DistributedTopology.start());
  }

  appEnv(): Record<string, string> {
    return this.topology.appEnv();
  }

  get databaseUrl(): string {
    return this.topology.primaryUrl();
  }

  describe(): string {
    const t = this.topology;
    return (
      `PostgreSQL primary :${t.primary.port}, replica :${t.replica.port}, PgBouncer :${t.pgbouncer.port}, ` +
      `Redis Cluster ${t.redis.nodeList}`
    );
  }

  async inject(fault: PlannedFault): Promise<boolean> {
    switch (fault.kind) {
      case 'fail-over-redis-master':
        await this.topology.failOverRedisMaster(fault.target, fault.downMs);
        return true;
      case 'lag-replica':
        await this.topology.lagReplica(fault.downMs);
        return true;
      case 'restart-pgbouncer':
        await this.topology.restartPgBouncer(fault.downMs);
        return true;
      case 'restart-postgres':
        await this.topology.restartPrimary(fault.downMs);
        return true;
      default:
        return false;
    }
  }

  async ensureAllUp(): Promise<void> {
    await this.topology.ensureAllUp();
  }

  async destroy(): Promise<void> {
    await this.topology.destroy();
  }
}
