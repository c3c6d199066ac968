import { IN_FLIGHT_STATES, type PayoutState } from '@payout/domain';
import {
  breakOf,
  countItems,
  matchStatement,
  type BookPayout,
  type ReconAction,
  type ReconBreak,
  type ReconCounts,
  type ReconItem,
  type StatementLine,
} from '@payout/recon';
import type { PrismaClient, PrismaClientOrTransaction } from './client.js';
import type { Prisma } from './generated/prisma/client.js';
import { recordDiscrepancy } from './repositories/discrepancy-repository.js';
import { reversePayout, settleSuccess } from './repositories/payout-transitions.js';

/** The business day of a statement is India's: value dates and our settlement dates are both IST. */
const BANK_TIME_ZONE = 'Asia/Kolkata';

export interface StatementRunRequest {
  lines: readonly StatementLine[];
  valueDates: readonly string[];
  /** Hex SHA-256 of the file as read. */
  fileDigest: string;
  fileName: string;
  /** "operator:<name>". */
  actor: string;
  /** Settle and reverse what is unambiguous; without it the run only reports. */
  apply: boolean;
}

export interface StatementRunReport {
  runId: bigint;
  fileDigest: string;
  valueDates: readonly string[];
  applied: boolean;
  counts: ReconCounts;
  breaks: ReconBreak[];
  /** Earlier runs of the same file (same digest), oldest first. */
  earlierRuns: { id: bigint; at: Date; applied: boolean; operator: string }[];
}

/**
 * The daily statement reconciliation (docs/reconciliation.md): loads every payout the statement names and
 * every payout settled on its dates, classifies each line and payout (the pure matcher of @payout/recon),
 * with `apply` carries out the unambiguous actions through the ordinary guarded statements — a pending
 * payout the bank paid settles SUCCESS, a return reverses a SUCCESS, anything else becomes a discrepancy
 * for a person — and stores the run. Every action is guarded by the payout's state, so a second run of the
 * same file finds those payouts already settled or reversed and applies nothing.
 */
export async function reconcileStatement(db: PrismaClient, request: StatementRunRequest): Promise<StatementRunReport> {
  const startedAt = new Date();
  const references = [...new Set(request.lines.map((l) => l.reference))];
  const payouts = await findPayoutsForStatement(db, references, request.valueDates);
  const items = matchStatement(request.lines, request.valueDates, payouts);

  let applied = 0;
  const resolved = new Set<ReconItem>(items.filter((i) => i.resolved));
  if (request.apply) {
    // Payments before returns: a payout the statement both pays and returns is settled, then reversed.
    for (const item of orderForApplying(items)) {
      if (await applyAction(db, item, request.actor)) {
        applied++;
        resolved.add(item);
      }
    }
  }

  const counts = countItems(items, applied);
  const breaks = items.filter((i) => !resolved.has(i)).map(breakOf);
  const earlierRuns = await db.statementRun.findMany({
    where: { fileDigest: request.fileDigest },
    orderBy: { id: 'asc' },
    select: { id: true, startedAt: true, applied: true, operator: true },
  });
  const run = await db.statementRun.create({
    data: {
      fileDigest: request.fileDigest,
      fileName: request.fileName.slice(0, 255),
      operator: request.actor.slice(0, 100),
      applied: request.apply,
      valueDates: request.valueDates.join(',').slice(0, 2000),
      lines: request.lines.length,
      counts,
      breaks: breaks.length,
      breakList: breaks as unknown as Prisma.InputJsonValue,
      startedAt,
    },
    select: { id: true },
  });
  return {
    runId: run.id,
    fileDigest: request.fileDigest,
    valueDates: request.valueDates,
    applied: request.apply,
    counts,
    breaks,
    earlierRuns: earlierRuns.map((r) => ({ id: r.id, at: r.startedAt, applied: r.applied, operator: r.operator })),
  };
}

function orderForApplying(items: readonly ReconItem[]): ReconItem[] {
  const rank = (a?: ReconAction) => (a?.kind === 'settle-success' ? 0 : a?.kind === 'reverse' ? 1 : 2);
  return items.filter((i) => i.action).sort((a, b) => rank(a.action) - rank(b.action));
}

/** Carries out one item's action; true when it changed the books (a settlement or a reversal). */
async function applyAction(db: PrismaClient, item: ReconItem, actor: string): Promise<boolean> {
  const action = item.action!;
  const line = item.line ? { ...item.line, amountPaise: item.line.amountPaise.toString() } : null;
  switch (action.kind) {
    case 'settle-success': {
      const note = { reason: `statement: the bank paid it (UTR ${action.utr})`, actor, railAnswer: line };
      const result = await settleSuccess(db, action.payoutId, action.utr, note, { onlyFrom: IN_FLIGHT_STATES });
      return result.moved;
    }
    case 'reverse': {
      const note = { reason: `statement: the money came back (UTR ${action.utr})`, actor, railAnswer: line };
      const result = await reversePayout(db, action.payoutId, { source: 'statement', bankReference: action.utr, note });
      return result.moved;
    }
    case 'record-discrepancy':
      await recordDiscrepancy(db, {
        payoutId: action.payoutId,
        kind: action.discrepancy,
        source: 'statement',
        railAnswer: line,
        note: `statement line ${item.line?.lineNumber ?? '?'}`,
      });
      return false;
  }
}

/** Every payout the statement names, and every payout settled (IST) on one of its dates. */
export async function findPayoutsForStatement(
  db: PrismaClientOrTransaction,
  references: readonly string[],
  valueDates: readonly string[],
): Promise<BookPayout[]> {
  const rows = await db.$queryRaw<
    {
      id: bigint;
      ack_no: string;
      state: PayoutState;
      amount_paise: bigint;
      bank_reference: string | null;
      settled_on: string | null;
    }[]
  >`
    WITH days AS (
      SELECT (d::timestamp AT TIME ZONE ${BANK_TIME_ZONE}) AS day_start,
             ((d + 1)::timestamp AT TIME ZONE ${BANK_TIME_ZONE}) AS day_end
        FROM unnest(${[...valueDates]}::date[]) AS d
    ), wanted AS (
      SELECT id FROM payouts WHERE ack_no = ANY(${[...references]}::text[])
      UNION
      SELECT p.id FROM days JOIN payouts p ON p.settled_at >= days.day_start AND p.settled_at < days.day_end
       WHERE p.state IN ('SUCCESS', 'REVERSED')
    )
    SELECT p.id, p.ack_no, p.state::text AS state, p.amount_paise, p.bank_reference,
           to_char(p.settled_at AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS settled_on
      FROM wanted JOIN payouts p ON p.id = wanted.id`;
  return rows.map((r) => ({
    id: r.id,
    ackNo: r.ack_no,
    state: r.state,
    amountPaise: r.amount_paise,
    bankReference: r.bank_reference,
    settledOn: r.settled_on,
  }));
}

/** A stored statement run with the breaks it left, newest first, for the support console. */
export interface StatementRunView {
  id: bigint;
  fileName: string;
  operator: string;
  applied: boolean;
  valueDates: string;
  lines: number;
  breaks: ReconBreak[];
  startedAt: Date;
}

export async function listStatementRuns(db: PrismaClientOrTransaction, limit: number): Promise<StatementRunView[]> {
  const runs = await db.statementRun.findMany({
    orderBy: { id: 'desc' },
    take: limit,
    select: {
      id: true,
      fileName: true,
      operator: true,
      applied: true,
      valueDates: true,
      lines: true,
      breakList: true,
      startedAt: true,
    },
  });
  return runs.map(({ breakList, ...run }) => ({ ...run, breaks: breakList as unknown as ReconBreak[] }));
}
