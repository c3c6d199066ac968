import type { BankSettings } from '@payout/config';
import {
  listBankHealth,
  openBankDowntime,
  resolveBankDowntime,
  saveBankHealth,
  withAdvisoryLock,
  type BankHealthRow,
  type PrismaClient,
} from '@payout/db';
import { assessBankHealth, healthKey, NO_OUTCOMES, type RoutingSettings } from '@payout/domain';
import type { Logger } from '@payout/telemetry';
import type { BankHealthWindow } from './health-window.js';

/** What one scoring did: whether this worker was the one to score, and the downtimes it opened or resolved. */
export interface ScoringResult {
  scored: boolean;
  opened: string[];
  resolved: string[];
}

/**
 * Scores every bank per mode from the shared health window, about once a second (docs/banks.md, "Routing"),
 * one worker process at a time: each round runs under a PostgreSQL advisory lock, as the sweepers do, and
 * reads the previous standing from `bank_health` inside it, so elimination's hysteresis holds whichever
 * worker scores. It writes the scores (`saveBankHealth`, which every worker's BankView reads), and opens a
 * DOWN downtime when a bank is eliminated for a mode and resolves it when the bank is back — in the same
 * transaction, so a downtime never disagrees with the standing written.
 */
export class BankHealthScorer {
  private static readonly LOCK_KEY = 7_358_201_447n;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      db: PrismaClient;
      window: BankHealthWindow;
      banks: readonly BankSettings[];
      settings: RoutingSettings;
      intervalMs: number;
      logger: Logger;
    },
  ) {}

  async scoreOnce(): Promise<ScoringResult> {
    const { db, window, banks, settings, logger } = this.options;
    const result = await withAdvisoryLock(
      db,
      BankHealthScorer.LOCK_KEY,
      async (tx) => {
        const counts = await window.read(banks);
        const before = new Map((await listBankHealth(tx)).map((row) => [healthKey(row.bank, row.mode), row]));
        const rows: Omit<BankHealthRow, 'updatedAt'>[] = [];
        const scoring: ScoringResult = { scored: true, opened: [], resolved: [] };
        for (const bank of banks) {
          for (const mode of bank.modes) {
            const key = healthKey(bank.name, mode);
            const window = counts.get(key) ?? NO_OUTCOMES;
            const was = before.get(key)?.eliminated ?? false;
            const health = assessBankHealth(window, was, settings);
            rows.push({ bank: bank.name, mode, ...window, ...health });
            if (health.eliminated && !was) {
              if ((await openBankDowntime(tx, { bank: bank.name, mode, status: 'DOWN' })).opened)
                scoring.opened.push(key);
            } else if (!health.eliminated && was) {
              if ((await resolveBankDowntime(tx, { bank: bank.name, mode })).resolved) scoring.resolved.push(key);
            }
          }
        }
        await saveBankHealth(tx, rows);
        return scoring;
      },
      { timeoutMs: 10_000, maxWaitMs: 2_000 },
    );
    if (result?.opened.length) logger.warn({ downtimes: result.opened }, 'bank eliminated: downtime opened');
    if (result?.resolved.length) logger.info({ downtimes: result.resolved }, 'bank back: downtime resolved');
    return result ?? { scored: false, opened: [], resolved: [] };
  }

  start(): void {
    const tick = () => {
      this.timer = setTimeout(() => {
        this.scoreOnce()
          .catch((error: unknown) =>
            this.options.logger.warn({ err: (error as Error).message }, 'bank scoring failed; the next round retries'),
          )
          .finally(() => {
            if (!this.stopped) tick();
          });
      }, this.options.intervalMs);
      this.timer.unref();
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
