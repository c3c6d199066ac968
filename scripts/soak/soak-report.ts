import type { PrismaClient } from '@payout/db';
import { auditPayouts } from '../../test/faults/payout-audit.js';
import type { BankBook } from './bank-journal.js';
import type { FaultKind, PlannedFault } from './fault-schedule.js';
import type { SentPayout } from './merchant-client.js';
import type { StatementRun } from './statement-run.js';
import { stillMovingHistories } from './still-moving.js';
import { formatTwoBankFigures, type TwoBankFigures } from './two-bank-report.js';

export interface FaultRecord extends PlannedFault {
  /** When it actually began and when the part was back, after the load started. */
  startedAtMs: number;
  recoveredAtMs: number;
}

export interface SoakReport {
  seed: number;
  short: boolean;
  /** What the apps ran on: one PostgreSQL and one Redis, the distributed topology, or one box with two banks. */
  topology: 'single' | 'distributed' | 'two-banks';
  payouts: number;
  merchants: number;
  accepted: number;
  /** Never got a definitive answer however often they were sent (not accepted; each is checked absent or settled). */
  unanswered: number;
  settled: { success: number; failed: number; reversed: number; pendingOnPurpose: number };
  /** Reversals the bank made, those returned to the merchant by our books, and ledger reversals beyond one per payout. */
  reversals: { atBank: number; returned: number; returnedTwice: number };
  /** Each `recon statement --apply` run: the second run of a file must apply nothing. */
  statements: StatementRun[];
  /** Every kind the schedule planned, with how often it struck. */
  faultsByKind: Partial<Record<FaultKind, number>>;
  /** Every HTTP status the merchants saw, retries included ("network": no answer at all). */
  answers: Record<string, number>;
  lost: number;
  paidTwice: number;
  /** References two banks recorded though the first had not refused them for good (two-bank topology). */
  sentToTwoBanks: number;
  invariantBreaches: number;
  /** Per bank, the primary's downtime and the payouts held through it (two-bank topology); null otherwise. */
  twoBanks: TwoBankFigures | null;
  /** From the moment the last payout was answered and the last fault repaired to nothing left moving. */
  drainMs: number;
  /** When the last payout was settled, after the first was sent. */
  lastSettledMs: number;
  totalMs: number;
  /** Each problem behind the three counts above, one line each. */
  problems: string[];
  /** Processes that died without being killed (a crash is a finding even when no money moved wrongly). */
  crashes: string[];
  /** The first payouts still moving after the drain, each with every event it went through (still-moving.ts). */
  stillMoving: string[];
  schedule: PlannedFault[];
  faults: FaultRecord[];
}

/** How many of the payouts still moving the report shows in full. */
const STILL_MOVING_SHOWN = 5;

interface DbPayout {
  transaction_id: string;
  state: string;
  merchant_id: number;
  ack_no: string;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  bank_reference: string | null;
  failure_reason: string | null;
  bank: string | null;
}

/**
 * Puts the merchants' view, our books and the bank's book side by side. Lost: an accepted payout missing
 * or under another Ack_no, a SUCCESS the bank did not pay, a payment the bank made for no payout of ours.
 * Paid twice: a reference paid under two UTRs, or a payout refunded (FAILED) that the bank paid.
 * Invariant breaches: every reconcile breach, payouts still moving after the drain, outcomes other than
 * the magic value's, and payouts nobody sent.
 */
export async function buildReport(input: {
  db: PrismaClient;
  seed: number;
  short: boolean;
  topology: SoakReport['topology'];
  merchantIds: readonly number[];
  sent: readonly SentPayout[];
  bank: BankBook;
  stuckAfterMs: number;
  faults: FaultRecord[];
  schedule: PlannedFault[];
  drainMs: number;
  lastSettledMs: number;
  totalMs: number;
  crashes: string[];
  statements: StatementRun[];
  twoBanks?: TwoBankFigures;
}): Promise<SoakReport> {
  const audit = await auditPayouts(input.db, input.bank.records, { stuckAfterMs: input.stuckAfterMs });
  const rows = await input.db.$queryRaw<DbPayout[]>`
    SELECT transaction_id, merchant_id, ack_no, state::text AS state, status::text AS status, bank_reference,
           failure_reason::text AS failure_reason, bank FROM payouts`;
  const byKey = new Map(rows.map((r) => [`${r.merchant_id}/${r.transaction_id}`, r]));

  const lost = [...audit.lost];
  const breaches = [
    ...audit.unfinished.map((p) => `still moving after the drain: ${p}`),
    ...audit.breaches.flatMap((b) =>
      b.examples.map(
        (e) => `${b.name}: ${JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
      ),
    ),
  ];
  let breachCount = audit.unfinished.length + audit.breaches.reduce((sum, b) => sum + b.breaches, 0);
  const twoBankBreaches = input.twoBanks?.problems.breaches ?? [];
  breaches.push(...twoBankBreaches);
  breachCount += twoBankBreaches.length;
  const answers: Record<string, number> = {};
  let accepted = 0;
  let unanswered = 0;
  for (const sent of input.sent) {
    for (const answer of sent.answers) answers[answer] = (answers[answer] ?? 0) + 1;
    const key = `${input.merchantIds[sent.planned.merchant]}/${sent.planned.body.TransactionID}`;
    const row = byKey.get(key);
    byKey.delete(key);
    if (!sent.final) {
      unanswered++;
      continue;
    }
    accepted++;
    if (!row) {
      lost.push(`payout ${sent.planned.index} was accepted as ${sent.final.ackNo} but is not in the database`);
      continue;
    }
    if (row.ack_no !== sent.final.ackNo) {
      lost.push(
        `payout ${sent.planned.index}: the merchant holds Ack_no ${sent.final.ackNo}, the database ${row.ack_no}`,
      );
    }
    const ended = row.state === 'REVERSED' ? 'REVERSED' : row.status;
    // Held past its merchant's hold window while no bank served its mode: not paid anywhere (the audit checks
    // both journals), failed with the reason that says retrying is safe (docs/banks.md, "Holding"), whatever
    // its amount would have made the bank do.
    const heldTooLong = input.twoBanks !== undefined && row.failure_reason === 'BANK_DOWNTIME';
    if (ended !== sent.planned.expected && !heldTooLong) {
      breachCount++;
      breaches.push(
        `payout ${sent.planned.index} (${sent.planned.flavour}) ended ${ended}, expected ${sent.planned.expected}`,
      );
    }
  }
  // Whatever is left in the database was sent by nobody.
  for (const row of byKey.values()) {
    breachCount++;
    breaches.push(`payout ${row.ack_no} (TransactionID ${row.transaction_id}) was never sent by any merchant`);
  }

  const paidTwice = [
    ...audit.paidTwice,
    ...input.bank.paidTwice,
    ...(input.twoBanks?.problems.paidByTwoBanks.map((p) => `by two banks: ${p}`) ?? []),
  ];
  const sentToTwoBanks = input.twoBanks?.problems.sentToTwoBanks ?? [];
  // Every reversal returned exactly once: each bank reversal is REVERSED here, and no payout's money came
  // back through the ledger more than once.
  const [twice] = await input.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT payout_id FROM ledger_entries WHERE kind = 'PAYOUT_REVERSAL' GROUP BY payout_id HAVING count(*) > 2) t`;
  const reversals = {
    atBank: input.bank.records.filter((r) => r.status === 'REVERSED').length,
    returned: audit.reversed,
    returnedTwice: twice?.n ?? 0,
  };
  for (const unreturned of audit.unreturnedReversals) breaches.push(`reversal not returned: ${unreturned}`);
  breachCount += audit.unreturnedReversals.length + reversals.returnedTwice;
  if (reversals.returnedTwice)
    breaches.push(`${reversals.returnedTwice} payouts reversed more than once in the ledger`);
  for (const run of input.statements.filter((r, i) => i % 2 === 1 && r.applied > 0)) {
    breachCount++;
    breaches.push(`statement ${run.bank} ${run.date} run again applied ${run.applied} more`);
  }
  const faultsByKind = Object.fromEntries(
    [...new Set(input.schedule.map((f) => f.kind))].map((k) => [k, input.faults.filter((f) => f.kind === k).length]),
  ) as Partial<Record<FaultKind, number>>;
  return {
    seed: input.seed,
    short: input.short,
    topology: input.topology,
    payouts: input.sent.length,
    merchants: input.merchantIds.length,
    accepted,
    unanswered,
    settled: {
      success: audit.success,
      failed: audit.failed,
      reversed: audit.reversed,
      pendingOnPurpose: audit.deliberatelyPending,
    },
    reversals,
    statements: input.statements,
    faultsByKind,
    answers,
    lost: lost.length,
    paidTwice: paidTwice.length,
    sentToTwoBanks: sentToTwoBanks.length,
    invariantBreaches: breachCount,
    twoBanks: input.twoBanks ?? null,
    drainMs: input.drainMs,
    lastSettledMs: input.lastSettledMs,
    totalMs: input.totalMs,
    problems: [
      ...lost.map((p) => `lost: ${p}`),
      ...paidTwice.map((p) => `paid twice: ${p}`),
      ...sentToTwoBanks.map((p) => `sent to two banks: ${p}`),
      ...breaches.map((p) => `breach: ${p}`),
    ],
    crashes: input.crashes,
    stillMoving: await stillMovingHistories(input.db, STILL_MOVING_SHOWN),
    schedule: input.schedule,
    faults: input.faults,
  };
}

const TOPOLOGY_TEXT: Record<SoakReport['topology'], string> = {
  single: 'single box',
  distributed: 'distributed (Redis Cluster, PgBouncer, read replica)',
  'two-banks': 'single box, two banks (primary: IMPS and UPI; secondary: IMPS)',
};

export function formatReport(report: SoakReport): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const faults = Object.entries(report.faultsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const answers = Object.entries(report.answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  const lines = [
    `topology                 ${TOPOLOGY_TEXT[report.topology]}`,
    `payouts                  ${report.payouts} from ${report.merchants} merchants`,
    `accepted                 ${report.accepted}${report.unanswered ? ` (${report.unanswered} never answered)` : ''}`,
    `settled SUCCESS          ${report.settled.success}`,
    `settled FAILED           ${report.settled.failed}`,
    `reversed (.99)           ${report.settled.reversed}`,
    `left PENDING on purpose  ${report.settled.pendingOnPurpose} (.55)`,
    `reversals                ${report.reversals.atBank} at the bank, ${report.reversals.returned} returned to the wallet, ${report.reversals.returnedTwice} returned twice`,
    `statement recon          ${report.statements.map((r) => `${r.bank} ${r.date} ${r.format}: applied ${r.applied} (exit ${r.exitCode})`).join('; ')}`,
    `faults injected          ${Object.values(report.faultsByKind).reduce((a, b) => a + b, 0)}: ${faults}`,
    `answers seen             ${answers}`,
    ...(report.twoBanks ? formatTwoBankFigures(report.twoBanks) : []),
    `lost                     ${report.lost}`,
    `paid twice               ${report.paidTwice}`,
    ...(report.twoBanks ? [`sent to two banks        ${report.sentToTwoBanks}`] : []),
    `invariant breaches       ${report.invariantBreaches}`,
    `drain time               ${seconds(report.drainMs)} (last settlement at +${seconds(report.lastSettledMs)})`,
    `run time                 ${seconds(report.totalMs)}`,
    `processes crashed        ${report.crashes.length}`,
    `seed                     ${report.seed}`,
  ];
  if (report.problems.length) lines.push('', 'problems:', ...report.problems.slice(0, 50).map((p) => `  ${p}`));
  if (report.crashes.length)
    lines.push('', 'crashes:', ...report.crashes.map((c) => `  ${c.replace(/\n/g, '\n    ')}`));
  if (report.stillMoving.length)
    lines.push(
      '',
      `still moving after the drain (the first ${STILL_MOVING_SHOWN}):`,
      ...report.stillMoving.map((l) => `  ${l}`),
    );
  return lines.join('\n');
}
