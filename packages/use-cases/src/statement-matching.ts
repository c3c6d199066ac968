import {
  StatementStaging,
  withConnection,
  type BookedLater,
  type PrismaClient,
  type StagedLine,
  type StagedPayoutKind,
} from '@payout/db';
import {
  breakOf,
  inApplyingOrder,
  matchLine,
  missingAtBank,
  planActions,
  RECON_CLASSES,
  reversedMissingAtBank,
  type Books,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconClass,
  type ReconCounts,
  type ReconItem,
  type StatementLine,
  type StatementLineSink,
} from '@payout/recon';

// Matching a statement where the data lives (docs/reconciliation.md, "Memory"): its lines go into the
// database as they are read, the database works out what each line's match depends on, and the lines come
// back a page at a time to be classified by the matcher of @payout/recon (matchLine) and folded into the
// run's counts, breaks and plan. What is kept is what the report shows — the breaks and the plan — never
// the file or the books. The run's rows are packages/db/src/repositories/statement-matching.ts.

/** How far a long run has got: lines read from the files, lines matched. */
export interface StatementProgress {
  stage: 'reading' | 'matching' | 'done';
  linesRead: number;
  linesMatched: number;
}

export interface MatchOptions {
  /**
   * Only this bank's payouts are the statement's; null where there is one bank (every payout is its). Asked
   * once the lines are read: a statement's bank may be told only by its account.
   */
  bank: () => string | null;
  /** Today in India, YYYY-MM-DD: a line dated after it is a break. */
  today: string;
  onProgress?: (progress: StatementProgress) => void;
}

/** A discrepancy the run finds for a person: what the line said of which payout. */
export interface FoundDiscrepancy {
  payoutId: bigint;
  kind: 'SUCCESS_AFTER_FAILED' | 'REVERSAL_OF_UNPAID';
  line: StatementLine;
}

/** What matching found: the run's counts, breaks and plan, and what an applied run records beside them. */
export interface MatchedStatement {
  startedAt: Date;
  /** How many lines were matched. */
  lines: number;
  counts: ReconCounts;
  breaks: ReconBreak[];
  plannedActions: PlannedStatementAction[];
  discrepancies: FoundDiscrepancy[];
  /** The movements this run found of payouts an earlier run called missing at the bank (the next-day rule). */
  bookedLater: BookedLater[];
}

/**
 * The peak memory (RSS, MB) of `payout-cli recon statement` over a run, whatever the file's size
 * (docs/reconciliation.md, "Memory"): the statement Job's request, under its limit. Most of it is the
 * process's fixed cost, the same for a line as for a million — node and the CLI's modules, V8's heap up to the
 * image's 128 MB of old space, the allocator's per-thread arenas — which moves by some 40 MB from run to run.
 */
export const STATEMENT_MEMORY_BUDGET_MB = 320;

/** How often progress is told while lines are read or matched. */
const PROGRESS_EVERY_LINES = 10_000;

/**
 * Loads a run's lines (`load` hands them to the sink as it reads them and says whether the run is accepted,
 * with its dates), then matches them in one REPEATABLE READ transaction of one connection: a refused run
 * leaves nothing behind, and neither does an accepted one (its staging tables end with the transaction).
 */
export async function matchInDatabase<T extends { valueDates: readonly string[] }>(
  db: PrismaClient,
  options: MatchOptions,
  load: (sink: StatementLineSink) => Promise<({ ok: true } & T) | { ok: false; reason: string }>,
): Promise<({ ok: true; matched: MatchedStatement } & T) | { ok: false; reason: string }> {
  const startedAt = new Date();
  return withConnection(db, async (connection) => {
    const staging = await StatementStaging.open(connection);
    try {
      const progress = progressTeller(options.onProgress);
      const loaded = await load({
        line: (line) => {
          staging.line(line);
          progress.read(staging.lines);
        },
        setAside: () => undefined,
        drain: () => staging.drain(),
      });
      if (!loaded.ok) {
        await staging.abandon();
        return loaded;
      }
      await staging.load();
      await staging.match({ valueDates: loaded.valueDates, today: options.today, bank: options.bank() });
      const matched = await foldMatches(staging, loaded.valueDates, options.today, progress);
      await staging.close();
      progress.done(staging.lines);
      return { ...loaded, matched: { startedAt, lines: staging.lines, ...matched } };
    } catch (error) {
      await staging.abandon().catch(() => undefined);
      throw error;
    }
  });
}

/** Every line classified in the statement's order, then the payouts it is silent about, folded as they come. */
async function foldMatches(
  staging: StatementStaging,
  valueDates: readonly string[],
  today: string,
  progress: ReturnType<typeof progressTeller>,
) {
  const earlierBreaks = await staging.payoutsWithEarlierBreaks();
  const fold = new MatchFold(earlierBreaks);
  // Lines plainly matched are counted where they are; only the others come back to be classified.
  let matchedLines = await staging.plainlyMatched();
  fold.addPlainlyMatched(matchedLines);
  for (let after = 0; ;) {
    const page = await staging.page(after);
    if (page.lines.length === 0) break;
    for (const staged of page.lines) {
      for (const item of matchLine(staged.line, booksOf(staged), stateOf(staged, today))) fold.add(item);
    }
    matchedLines += page.lines.length;
    progress.matched(matchedLines);
    after = page.last;
  }
  const silent: [StagedPayoutKind, typeof missingAtBank][] = [
    ['success_here_missing_at_bank', missingAtBank],
    ['reversed_here_missing_at_bank', reversedMissingAtBank],
  ];
  for (const [kind, itemOf] of silent) {
    for (let after = 0n; ;) {
      const payouts = await staging.silentPayouts(kind, valueDates, after);
      if (payouts.length === 0) break;
      for (const payout of payouts) fold.add(itemOf(payout));
      after = payouts[payouts.length - 1]!.id;
    }
  }
  return fold.result();
}

/** The books as one staged line is matched against them: the database's answers for that line. */
function booksOf(staged: StagedLine): Books {
  return {
    byReference: () => staged.named,
    byUtr: () => staged.byUtr,
    batchNamed: () => staged.batchNamed,
    batchTotalling: () => staged.batchTotalling,
    candidatesFor: () => staged.candidates,
  };
}

/** The earlier lines as one staged line sees them: the keys they took that matter to it. */
function stateOf(staged: StagedLine, today: string) {
  return { seen: new Set(staged.seenKeys), debited: { add: () => undefined }, today };
}

/** The run as its items come: counts, breaks, the plan, discrepancies, and the next-day rule's movements. */
class MatchFold {
  private readonly counts = Object.fromEntries(RECON_CLASSES.map((c) => [c, 0])) as Record<ReconClass, number>;
  private readonly breaks: ReconBreak[] = [];
  private readonly planned: PlannedStatementAction[] = [];
  private readonly discrepancies: FoundDiscrepancy[] = [];
  private readonly bookedLater: BookedLater[] = [];

  constructor(private readonly earlierBreaks: ReadonlySet<string>) {}

  add(item: ReconItem): void {
    this.counts[item.class]++;
    if (!item.resolved) this.breaks.push(breakOf(item));
    this.planned.push(...planActions([item]));
    const { action, line, payout } = item;
    if (action?.kind === 'record-discrepancy' && line) {
      this.discrepancies.push({ payoutId: action.payoutId, kind: action.discrepancy, line });
    }
    if (
      (item.class === 'matched' || item.class === 'return') &&
      line &&
      payout &&
      this.earlierBreaks.has(payout.ackNo)
    ) {
      this.bookedLater.push({
        ackNo: payout.ackNo,
        lineNumber: line.lineNumber,
        ...(line.file !== undefined && { file: line.file }),
        breakKind: line.type === 'DEBIT' ? 'success_here_missing_at_bank' : 'reversed_here_missing_at_bank',
      });
    }
  }

  addPlainlyMatched(count: number): void {
    this.counts.matched += count;
  }

  result() {
    return {
      counts: { ...this.counts, applied: 0 },
      breaks: this.breaks,
      plannedActions: inApplyingOrder(this.planned),
      discrepancies: this.discrepancies,
      bookedLater: this.bookedLater,
    };
  }
}

/** Tells progress every so many lines read, and after every page matched; the caller decides what to show. */
function progressTeller(onProgress: MatchOptions['onProgress']) {
  let read = 0;
  return {
    read(linesRead: number) {
      read = linesRead;
      if (onProgress && linesRead % PROGRESS_EVERY_LINES === 0)
        onProgress({ stage: 'reading', linesRead, linesMatched: 0 });
    },
    matched(linesMatched: number) {
      onProgress?.({ stage: 'matching', linesRead: read, linesMatched });
    },
    done(lines: number) {
      onProgress?.({ stage: 'done', linesRead: lines, linesMatched: lines });
    },
  };
}
