import type { PrismaClient } from '@payout/db';
import { auditPayouts } from '../../test/faults/payout-audit.js';
import type { BankBook } from './bank-journal.js';
import { FAULT_KINDS, type FaultKind, type PlannedFault } from './fault-schedule.js';
import type { SentPayout } from './merchant-client.js';

export interface FaultRecord extends PlannedFault {
  /** When it actually began and when the part was back, after the load started. */
  startedAtMs: number;
  recoveredAtMs: number;
}

export interface SoakReport {
  seed: number;
  short: boolean;
  payouts: number;
  merchants: number;
  accepted: number;
  /** Never got a definitive answer however often they were sent (not accepted; each is checked absent or settled). */
  unanswered: number;
  settled: { success: number; failed: number; pendingOnPurpose: number };
  faultsByKind: Record<FaultKind, number>;
  /** Every HTTP status the merchants saw, retries included ("network": no answer at all). */
  answers: Record<string, number>;
  lost: number;
  paidTwice: number;
  invariantBreaches: number;
  /** From the moment the last payout was answered and the last fault repaired to nothing left moving. */
  drainMs: number;
  /** When the last payout was settled, after the first was sent. */
  lastSettledMs: number;
  totalMs: number;
  /** Each problem behind the three counts above, one line each. */
  problems: string[];
  /** Processes that died without being killed (a crash is a finding even when no money moved wrongly). */
  crashes: string[];
  schedule: PlannedFault[];
  faults: FaultRecord[];
}

interface DbPayout {
  transaction_id: string;
  merchant_id: number;
  ack_no: string;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  bank_reference: string | null;
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
}): Promise<SoakReport> {
  const audit = await auditPayouts(input.db, input.bank.records, { stuckAfterMs: input.stuckAfterMs });
  const rows = await input.db.$queryRaw<DbPayout[]>`
    SELECT transaction_id, merchant_id, ack_no, status::text AS status, bank_reference FROM payouts`;
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
    if (row.status !== sent.planned.expected) {
      breachCount++;
      breaches.push(
        `payout ${sent.planned.index} (${sent.planned.flavour}) ended ${row.status}, expected ${sent.planned.expected}`,
      );
    }
  }
  // Whatever is left in the database was sent by nobody.
  for (const row of byKey.values()) {
    breachCount++;
    breaches.push(`payout ${row.ack_no} (TransactionID ${row.transaction_id}) was never sent by any merchant`);
  }

  const paidTwice = [...audit.paidTwice, ...input.bank.paidTwice];
  const faultsByKind = Object.fromEntries(
    FAULT_KINDS.map((k) => [k, input.faults.filter((f) => f.kind === k).length]),
  ) as Record<FaultKind, number>;
  return {
    seed: input.seed,
    short: input.short,
    payouts: input.sent.length,
    merchants: input.merchantIds.length,
    accepted,
    unanswered,
    settled: { success: audit.success, failed: audit.failed, pendingOnPurpose: audit.deliberatelyPending },
    faultsByKind,
    answers,
    lost: lost.length,
    paidTwice: paidTwice.length,
    invariantBreaches: breachCount,
    drainMs: input.drainMs,
    lastSettledMs: input.lastSettledMs,
    totalMs: input.totalMs,
    problems: [
      ...lost.map((p) => `lost: ${p}`),
      ...paidTwice.map((p) => `paid twice: ${p}`),
      ...breaches.map((p) => `breach: ${p}`),
    ],
    crashes: input.crashes,
    schedule: input.schedule,
    faults: input.faults,
  };
}

export function formatReport(report: SoakReport): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const faults = FAULT_KINDS.map((k) => `${k} ${report.faultsByKind[k]}`).join(', ');
  const answers = Object.entries(report.answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  const lines = [
    `payouts                  ${report.payouts} from ${report.merchants} merchants`,
    `accepted                 ${report.accepted}${report.unanswered ? ` (${report.unanswered} never answered)` : ''}`,
    `settled SUCCESS          ${report.settled.success}`,
    `settled FAILED           ${report.settled.failed}`,
    `left PENDING on purpose  ${report.settled.pendingOnPurpose} (.55)`,
    `faults injected          ${Object.values(report.faultsByKind).reduce((a, b) => a + b, 0)}: ${faults}`,
    `answers seen             ${answers}`,
    `lost                     ${report.lost}`,
    `paid twice               ${report.paidTwice}`,
    `invariant breaches       ${report.invariantBreaches}`,
    `drain time               ${seconds(report.drainMs)} (last settlement at +${seconds(report.lastSettledMs)})`,
    `run time                 ${seconds(report.totalMs)}`,
    `processes crashed        ${report.crashes.length}`,
    `seed                     ${report.seed}`,
  ];
  if (report.problems.length) lines.push('', 'problems:', ...report.problems.slice(0, 50).map((p) => `  ${p}`));
  if (report.crashes.length)
    lines.push('', 'crashes:', ...report.crashes.map((c) => `  ${c.replace(/\n/g, '\n    ')}`));
  return lines.join('\n');
}
