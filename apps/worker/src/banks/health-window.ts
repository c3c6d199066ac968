import type { BankSettings } from '@payout/config';
import {
  BANK_OUTCOMES,
  countOutcome,
  NO_OUTCOMES,
  recentRun,
  type BankName,
  type BankOutcome,
  type OutcomeCounts,
  type PayoutMode,
  type RecentRun,
} from '@payout/domain';
import type { RedisConnection } from '@payout/queue';
import type { Logger } from '@payout/telemetry';

/** The hash field holding the second a bank's window starts from (after its standing last changed). */
const SINCE_FIELD = 'since';

/**
 * Each bank's sliding health window per mode, shared by every worker process through Redis (docs/banks.md,
 * "Routing"): one hash per bank and mode, `<QUEUE_PREFIX>:bank-health:<bank>:<mode>`, whose fields count
 * the outcomes of one second (`<epoch second>:<outcome>`). The queue prefix is a hash tag on a Redis
 * Cluster, so every key is in the queues' slot. A submit's outcome is counted in memory and written with the
 * others a few times a second — one pipelined write per flush, not a Redis call per payout.
 */
export class BankHealthWindow {
  private pending = new Map<
    string,
    { bank: BankName; mode: PayoutMode; second: number; outcome: BankOutcome; n: number }
  >();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      redis: RedisConnection;
      prefix: string;
      windowMs: number;
      /** How often counted outcomes are written. */
      flushMs: number;
      logger: Logger;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private key(bank: BankName, mode: PayoutMode): string {
    return `${this.options.prefix}:bank-health:${bank}:${mode}`;
  }

  /** Counts one submit's outcome at `bank` for `mode`. */
  record(bank: BankName, mode: PayoutMode, outcome: BankOutcome): void {
    const second = Math.floor(this.now() / 1000);
    const id = `${bank}|${mode}|${second}|${outcome}`;
    const entry = this.pending.get(id);
    if (entry) entry.n++;
    else this.pending.set(id, { bank, mode, second, outcome, n: 1 });
  }

  /** Writes the counted outcomes (each key kept a little past the window, then left to expire). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const pipeline = this.options.redis.pipeline();
    const keys = new Set<string>();
    for (const entry of batch) {
      const key = this.key(entry.bank, entry.mode);
      keys.add(key);
      pipeline.hincrby(key, `${entry.second}:${entry.outcome}`, entry.n);
    }
    for (const key of keys) pipeline.pexpire(key, 2 * this.options.windowMs + 10_000);
    try {
      await pipeline.exec();
    } catch (error) {
      // Health is a routing hint: a lost second of counts is not worth holding work for.
      this.options.logger.warn({ err: (error as Error).message }, 'could not record the banks’ outcomes');
    }
  }

  /** Flushes on a timer until stopped. */
  start(): void {
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.flush().finally(() => {
          if (this.timer) tick();
        });
      }, this.options.flushMs);
      this.timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /**
   * Starts the window of `bank` for `mode` afresh from this second: its standing has just changed, and the
   * bank is judged from here on by what it does now (docs/banks.md, "Routing"). A mark in the hash, not a
   * deletion, so counts another worker flushes late for an earlier second are ignored too.
   */
  async restart(bank: BankName, mode: PayoutMode): Promise<void> {
    const key = this.key(bank, mode);
    await this.options.redis
      .multi()
      .hset(key, SINCE_FIELD, Math.floor(this.now() / 1000))
      .pexpire(key, 2 * this.options.windowMs + 10_000)
      .exec();
  }

  /**
   * The window of every bank and mode it serves (over the last `windowMs`, from its restart if later): its
   * counts, and its newest run of failures or of work done. Prunes the seconds that have left it.
   */
  async read(banks: readonly BankSettings[]): Promise<Map<string, { counts: OutcomeCounts; run: RecentRun }>> {
    const from = Math.floor((this.now() - this.options.windowMs) / 1000);
    const targets = banks.flatMap((bank) => bank.modes.map((mode) => ({ bank: bank.name, mode })));
    const pipeline = this.options.redis.pipeline();
    for (const t of targets) pipeline.hgetall(this.key(t.bank, t.mode));
    const replies = (await pipeline.exec()) ?? [];
    const windows = new Map<string, { counts: OutcomeCounts; run: RecentRun }>();
    const prune = this.options.redis.pipeline();
    let stale = 0;
    targets.forEach((t, i) => {
      const [error, reply] = replies[i] ?? [null, {}];
      if (error) throw error;
      const fields = (reply ?? {}) as Record<string, string>;
      const since = Number(fields[SINCE_FIELD] ?? 0);
      const bySecond = new Map<number, OutcomeCounts>();
      const old: string[] = [];
      for (const [field, value] of Object.entries(fields)) {
        if (field === SINCE_FIELD) continue;
        const [at, outcome] = field.split(':');
        const second = Number(at);
        if (second <= from) old.push(field);
        else if (second >= since && (BANK_OUTCOMES as readonly string[]).includes(outcome!))
          bySecond.set(
            second,
            countOutcome(bySecond.get(second) ?? NO_OUTCOMES, outcome as BankOutcome, Number(value)),
          );
      }
      if (old.length) {
        prune.hdel(this.key(t.bank, t.mode), ...old);
        stale++;
      }
      const seconds = [...bySecond].map(([second, counts]) => ({ second, counts }));
      const counts = seconds.reduce(
        (sum, { counts: c }) => ({
          paid: sum.paid + c.paid,
          refused: sum.refused + c.refused,
          technical: sum.technical + c.technical,
          timeouts: sum.timeouts + c.timeouts,
        }),
        NO_OUTCOMES,
      );
      windows.set(`${t.bank}:${t.mode}`, { counts, run: recentRun(seconds, Math.floor(this.now() / 1000)) });
    });
    if (stale) await prune.exec();
    return windows;
  }
}
