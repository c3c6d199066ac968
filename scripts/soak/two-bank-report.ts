import type { PrismaClient } from '@payout/db';
import type { BanksAudit } from './bank-audit.js';
import type { BankBook } from './bank-journal.js';
import type { SoakBank } from './soak-cluster.js';

// The two-bank topology's part of the soak report (docs/reliability.md, "Two banks"): per bank what we sent,
// what it recorded and paid; the payouts held while no bank served their mode, and what became of each; and
// the rule that a payout goes to a second bank only after its first bank's definitive no.

export interface BankFigures {
  name: string;
  modes: string[];
  /** Payouts our books say went to this bank (payouts.bank). */
  sent: number;
  /** References its journal holds (it accepted them). */
  recorded: number;
  /** References it paid (SUCCESS or later REVERSED). */
  paid: number;
  /** Payouts settled SUCCESS in our books with this bank. */
  settledSuccess: number;
}

export interface TwoBankFigures {
  banks: BankFigures[];
  /** The primary's downtime: how it went down, and when it went and came back (after the load started). */
  downtime: { manner: '503' | 'refused'; fromMs: number; backMs: number } | null;
  /** From the primary answering again to the first reference it accepted after that (its first routed payout). */
  recoveryToFirstPayoutMs: number | null;
  held: {
    /** Payouts held, reserved and unsent, because no bank would take them at some moment. */
    payouts: number;
    /** The most held at one moment (sampled each second during the load). */
    peakAtOnce: number;
    /** Held, then sent to a bank once one served their mode. */
    sentAfterHold: number;
    /** Held past their merchant's hold window: FAILED with BANK_DOWNTIME, paid by no bank. */
    failedBankDowntime: number;
  };
  /** References both banks recorded though the first had not refused them for good. */
  sentToTwoBanks: number;
  /** References the first bank refused for good (FAILED) and the other then took. */
  movedAfterRefusal: number;
  /** Each problem of the two-bank rules, one line each (counted as breaches, or paid twice, by the report). */
  problems: { sentToTwoBanks: string[]; paidByTwoBanks: string[]; breaches: string[] };
}

interface HeldRow {
  id: bigint;
  ack_no: string;
  status: string;
  state: string;
  bank: string | null;
  failure_reason: string | null;
  held_since: Date | null;
}

/**
 * Reads our books beside the banks' journals once the run has drained. A breach: a held payout still held,
 * still PENDING without a bank, or FAILED unsent for another reason than BANK_DOWNTIME; a payout paid by a
 * bank other than the one our books name.
 */
export async function twoBankFigures(input: {
  db: PrismaClient;
  banks: readonly SoakBank[];
  books: ReadonlyMap<string, BankBook>;
  audit: BanksAudit;
  downtime: { manner: '503' | 'refused'; fromMs: number; backMs: number; backAt: number } | null;
  heldPeak: number;
}): Promise<TwoBankFigures> {
  const { db, audit } = input;
  const bySent = await db.$queryRaw<{ bank: string; sent: number; success: number }[]>`
    SELECT bank, count(*)::int AS sent, count(*) FILTER (WHERE status = 'SUCCESS')::int AS success
      FROM payouts WHERE bank IS NOT NULL GROUP BY bank`;
  const banks = input.banks.map((bank): BankFigures => {
    const book = input.books.get(bank.name);
    const row = bySent.find((r) => r.bank === bank.name);
    return {
      name: bank.name,
      modes: bank.modes,
      sent: row?.sent ?? 0,
      recorded: book?.records.length ?? 0,
      paid: book?.records.filter((r) => r.status === 'SUCCESS' || r.status === 'REVERSED').length ?? 0,
      settledSuccess: row?.success ?? 0,
    };
  });

  // A hold is the ACCEPTED → ACCEPTED event the worker writes when it finds no bank for the payout's mode.
  const held = await db.$queryRaw<HeldRow[]>`
    SELECT p.id, p.ack_no, p.status::text AS status, p.state::text AS state, p.bank,
           p.failure_reason::text AS failure_reason, p.held_since
      FROM payouts p
     WHERE p.held_since IS NOT NULL OR p.failure_reason = 'BANK_DOWNTIME'
        OR EXISTS (SELECT 1 FROM payout_events e
                    WHERE e.payout_id = p.id AND e.from_state = 'ACCEPTED' AND e.to_state = 'ACCEPTED')`;
  const breaches: string[] = [];
  for (const payout of held) {
    const label = `held payout ${payout.id} (${payout.ack_no}, ${payout.state})`;
    // held_since stays on a payout failed past its hold window, as the record of its hold.
    if (payout.held_since !== null && payout.state === 'ACCEPTED')
      breaches.push(`${label}: still held after the drain`);
    else if (payout.status === 'PENDING' && payout.bank === null) breaches.push(`${label}: PENDING, sent to no bank`);
    else if (payout.status === 'FAILED' && payout.bank === null && payout.failure_reason !== 'BANK_DOWNTIME')
      breaches.push(`${label}: FAILED unsent with ${payout.failure_reason ?? 'no reason'}, not BANK_DOWNTIME`);
  }

  // Our books and the banks must agree on which bank paid.
  const rows = await db.$queryRaw<{ ack_no: string; bank: string | null }[]>`
    SELECT ack_no, bank FROM payouts WHERE status = 'SUCCESS' OR state = 'REVERSED'`;
  for (const row of rows) {
    const payer = audit.bankOf.get(row.ack_no);
    if (payer !== undefined && payer !== row.bank)
      breaches.push(`payout ${row.ack_no}: our books name ${row.bank ?? 'no bank'}, ${payer} paid it`);
  }

  const backAt = input.downtime?.backAt;
  const primaryAfter = [...(input.books.get('primary')?.acceptedAt.values() ?? [])].filter(
    (at) => backAt !== undefined && at >= backAt,
  );
  return {
    banks,
    downtime: input.downtime && {
      manner: input.downtime.manner,
      fromMs: input.downtime.fromMs,
      backMs: input.downtime.backMs,
    },
    recoveryToFirstPayoutMs:
      backAt === undefined || primaryAfter.length === 0 ? null : Math.min(...primaryAfter) - backAt,
    held: {
      payouts: held.length,
      peakAtOnce: input.heldPeak,
      sentAfterHold: held.filter((p) => p.bank !== null && p.failure_reason !== 'BANK_DOWNTIME').length,
      failedBankDowntime: held.filter((p) => p.failure_reason === 'BANK_DOWNTIME').length,
    },
    sentToTwoBanks: audit.sentToTwoBanks.length,
    movedAfterRefusal: audit.movedAfterRefusal.length,
    problems: { sentToTwoBanks: audit.sentToTwoBanks, paidByTwoBanks: audit.paidByTwoBanks, breaches },
  };
}

/** The two-bank lines of the soak report. */
export function formatTwoBankFigures(figures: TwoBankFigures): string[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const { downtime, held } = figures;
  return [
    ...figures.banks.map(
      (b) =>
        `bank ${b.name.padEnd(18)} ${b.modes.join('+').padEnd(8)} sent ${b.sent}, recorded ${b.recorded}, paid ${b.paid} ` +
        `(settled SUCCESS here: ${b.settledSuccess})`,
    ),
    `primary's downtime       ${downtime ? `${downtime.manner === 'refused' ? 'port refusing connections' : '503 to every call'} from +${seconds(downtime.fromMs)} to +${seconds(downtime.backMs)}` : 'none'}`,
    `recovery → first payout  ${figures.recoveryToFirstPayoutMs === null ? 'none routed to the primary after it came back' : seconds(figures.recoveryToFirstPayoutMs)}`,
    `held (no bank for mode)  ${held.payouts} (at most ${held.peakAtOnce} at once): ${held.sentAfterHold} sent after the hold, ${held.failedBankDowntime} FAILED BANK_DOWNTIME`,
    `moved to the other bank  ${figures.movedAfterRefusal} (each after its first bank's definitive refusal)`,
  ];
}
