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
import {
  assessBankHealth,
  healthKey,
  NO_OUTCOMES,
  NO_RUN,
  type BankName,
  type PayoutMode,
  type RoutingSettings,
} from '@payout/domain';
import type { Logger } from '@payout/telemetry';
import type { BankHealthWindow } from './health-window.js';

/** What one scoring did: whether this worker was the one to score, and the downtimes it opened or resolved. */
export interface ScoringResult {
  scored: boolean;
  opened: string[];
  resolved: string[];
}

/** What happens when a bank's standing changes: its merchants are told, and its caught payouts asked about. */
export interface StandingChanges {
  /** The downtime webhooks the scoring recorded, to be delivered now rather than at the next sweep. */
  notify(webhookDeliveryIds: bigint[]): void;
  /** The bank is back for `mode`: what it holds with an unknown outcome is asked about now. */
  back(bank: BankName, mode: PayoutMode): Promise<unknown>;
}

/**
 * Scores every bank per mode from the shared health window, about once a second (docs/banks.md, "Routing"),
 * one worker process at a time: each round runs under a PostgreSQL advisory lock, as the sweepers do, and
 * reads the previous standing from `bank_health` inside it, so elimination's hysteresis holds whichever
 * worker scores. It writes the scores (`saveBankHealth`, which every worker's BankView reads), and opens a
 * DOWN downtime when a bank is eliminated for a mode and resolves it when the bank is back — in the same
 * transaction, so a downtime never disagrees with the standing written. After the transaction, a bank whose
 * standing changed has its window started afresh (it is judged by what it does from then on), the downtime
 * webhooks go out, and a bank that is back has its caught payouts asked about.
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
      changes?: StandingChanges;
    },
  ) {}

  async scoreOnce(): Promise<ScoringResult> {
    const { db, window, banks, settings, logger, changes } = this.options;
    const result = await withAdvisoryLock(
      db,
      BankHealthScorer.LOCK_KEY,
      async (tx) => {
        const windows = await window.read(banks);
        const before = new Map((await listBankHealth(tx)).map((row) => [healthKey(row.bank, row.mode), row]));
        const rows: Omit<BankHealthRow, 'updatedAt'>[] = [];
        const scoring = {
          scored: true,
          opened: [] as string[],
          resolved: [] as string[],
          changed: [] as { bank: BankName; mode: PayoutMode; eliminated: boolean }[],
          webhookDeliveryIds: [] as bigint[],
        };
        for (const bank of banks) {
          for (const mode of bank.modes) {
            const key = healthKey(bank.name, mode);
            const { counts, run } = windows.get(key) ?? { counts: NO_OUTCOMES, run: NO_RUN };
            const was = before.get(key)?.eliminated ?? false;
            const health = assessBankHealth(counts, was, settings, run);
            rows.push({ bank: bank.name, mode, ...counts, ...health });
            if (health.eliminated === was) continue;
            scoring.changed.push({ bank: bank.name, mode, eliminated: health.eliminated });
            if (health.eliminated) {
              const downtime = await openBankDowntime(tx, { bank: bank.name, mode, status: 'DOWN' });
              if (downtime.opened) scoring.opened.push(key);
              scoring.webhookDeliveryIds.push(...downtime.webhookDeliveryIds);
            } else {
              const downtime = await resolveBankDowntime(tx, { bank: bank.name, mode });
              if (downtime.resolved) scoring.resolved.push(key);
              scoring.webhookDeliveryIds.push(...downtime.webhookDeliveryIds);
            }
          }
        }
        await saveBankHealth(tx, rows);
        return scoring;
      },
      { timeoutMs: 10_000, maxWaitMs: 2_000 },
    );
    if (!result) return { scored: false, opened: [], resolved: [] };
    if (result.opened.length) logger.warn({ downtimes: result.opened }, 'bank eliminated: downtime opened');
    if (result.resolved.length) logger.info({ downtimes: result.resolved }, 'bank back: downtime resolved');
    if (result.webhookDeliveryIds.length) changes?.notify(result.webhookDeliveryIds);
    for (const { bank, mode, eliminated } of result.changed) {
      await window
        .restart(bank, mode)
        .catch((error: unknown) =>
          logger.warn({ err: (error as Error).message, bank, mode }, 'could not start the bank’s window afresh'),
        );
      if (!eliminated)
        await changes
          ?.back(bank, mode)
          .catch((error: unknown) =>
            logger.warn(
              { err: (error as Error).message, bank, mode },
              'could not ask about the bank’s caught payouts now; their schedule (or the sweeper) still does',
            ),
          );
    }
    return { scored: true, opened: result.opened, resolved: result.resolved };
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
