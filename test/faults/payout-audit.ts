import { checkInvariants, type InvariantCheck, type PrismaClientOrTransaction } from '@payout/db';

/** What the bank holds for one reference (the rail simulator's book, or its state file). */
export interface BankRecord {
  reference: string;
  /** REVERSED: the bank paid it and the money came back. */
  status: 'SUCCESS' | 'FAILED' | 'PENDING' | 'REVERSED';
  utr?: string | undefined;
}

/** Paise `.55`: the rail keeps it PENDING for ever, so the payout is left PENDING on purpose. */
export const DELIBERATELY_PENDING_PAISE = 55n;

export interface PayoutAudit {
  payouts: number;
  success: number;
  failed: number;
  /** Payouts paid and come back (REVERSED here: FAILED to the merchant, the amount back in the wallet). */
  reversed: number;
  /** Reversals the bank made that our books have not returned to the merchant (SUCCESS here). */
  unreturnedReversals: string[];
  /** PENDING on purpose: `.55` amounts the bank itself still holds as PENDING. */
  deliberatelyPending: number;
  /** Money that went missing: settled SUCCESS without the bank paying, or paid by the bank without a payout. */
  lost: string[];
  /** Money that left twice: the bank paid a payout our books returned to the merchant (FAILED). */
  paidTwice: string[];
  /** Payouts still PENDING that should have been decided. */
  unfinished: string[];
  /** Every reconcile check with at least one breach. */
  breaches: InvariantCheck[];
}

interface PayoutRow {
  id: bigint;
  ack_no: string;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  state: string;
  amount_paise: bigint;
  failure_reason: string | null;
  bank_reference: string | null;
}

/**
 * Compares our books with the bank's, payout by payout, and runs every reconcile check (stuck payouts
 * included). Meant for a drained system: anything still moving shows up as unfinished.
 */
export async function auditPayouts(
  db: PrismaClientOrTransaction,
  bank: readonly BankRecord[],
  options: { stuckAfterMs: number },
): Promise<PayoutAudit> {
  const rows = await db.$queryRaw<PayoutRow[]>`
    SELECT id, ack_no, status::text AS status, state::text AS state, amount_paise, failure_reason::text AS failure_reason,
           bank_reference
      FROM payouts ORDER BY id`;
  const atBank = new Map(bank.map((record) => [record.reference, record]));
  const audit: PayoutAudit = {
    payouts: rows.length,
    success: 0,
    failed: 0,
    reversed: 0,
    unreturnedReversals: [],
    deliberatelyPending: 0,
    lost: [],
    paidTwice: [],
    unfinished: [],
    breaches: [],
  };

  for (const payout of rows) {
    const record = atBank.get(payout.ack_no);
    atBank.delete(payout.ack_no);
    const label = `payout ${payout.id} (${payout.ack_no}, ${payout.state})`;
    switch (payout.status) {
      case 'SUCCESS':
        audit.success++;
        if (record?.status === 'REVERSED') {
          audit.unreturnedReversals.push(`${label}: the bank reversed it, our books still show it paid`);
        } else if (record?.status !== 'SUCCESS')
          audit.lost.push(`${label}: settled SUCCESS but the bank says ${record?.status ?? 'nothing'}`);
        else if (record.utr !== payout.bank_reference) {
          audit.lost.push(`${label}: Bankriff ${payout.bank_reference} is not the bank's UTR ${record.utr}`);
        }
        break;
      case 'FAILED':
        if (payout.state === 'REVERSED') {
          // Paid and come back: the bank must say so, under the UTR we recorded.
          audit.reversed++;
          if (record?.status !== 'REVERSED') {
            audit.lost.push(`${label}: reversed here but the bank says ${record?.status ?? 'nothing'}`);
          } else if (record.utr !== payout.bank_reference) {
            audit.lost.push(`${label}: Bankriff ${payout.bank_reference} is not the bank's UTR ${record.utr}`);
          }
          break;
        }
        audit.failed++;
        if (record?.status === 'SUCCESS' || record?.status === 'REVERSED')
          audit.paidTwice.push(`${label}: returned to the merchant but paid by the bank`);
        if (record && payout.failure_reason === 'INSUFFICIENT_BALANCE') {
          audit.lost.push(`${label}: refused for balance, yet sent to the bank`);
        }
        break;
      case 'PENDING':
        if (payout.amount_paise % 100n === DELIBERATELY_PENDING_PAISE && record?.status === 'PENDING') {
          audit.deliberatelyPending++;
        } else {
          audit.unfinished.push(`${label}: still PENDING; the bank says ${record?.status ?? 'nothing'}`);
        }
        break;
    }
  }
  // What is left at the bank belongs to no payout of ours.
  for (const record of atBank.values()) {
    if (record.status === 'SUCCESS' || record.status === 'REVERSED')
      audit.lost.push(`bank paid reference ${record.reference}, which no payout has`);
  }

  const report = await checkInvariants(db, { stuckAfterMs: options.stuckAfterMs });
  audit.breaches = report.checks.filter((check) => check.breaches > 0);
  return audit;
}

/** One line per problem, empty when the audit is clean. */
export function auditProblems(audit: PayoutAudit): string[] {
  return [
    ...audit.lost.map((p) => `lost: ${p}`),
    ...audit.paidTwice.map((p) => `paid twice: ${p}`),
    ...audit.unfinished.map((p) => `unfinished: ${p}`),
    ...audit.unreturnedReversals.map((p) => `reversal not returned: ${p}`),
    ...audit.breaches.map(
      (b) =>
        `invariant ${b.name}: ${b.breaches} breach(es), e.g. ${JSON.stringify(b.examples.slice(0, 3), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
    ),
  ];
}
