import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PayoutState } from '@payout/domain';
import { acceptStatementFile, matchStatement, planActions, type BookPayout, type ReconItem } from '@payout/recon';
import {
  bankStatementFor,
  istDate,
  isBookedInBulk,
  renderStatement,
  SETTLEMENT_ACCOUNT,
  STATEMENT_FORMATS,
  type BookedPayout,
  type StatementExportFormat,
} from '@payout/rail-sim';
import { assertProperty } from '../properties/property-replay.js';

// What rail-sim's statement says and what our books say of the same payouts agree, in every layout it
// exports (docs/rail-sim.md, "`GET /v1/statement`"; docs/reconciliation.md): matched, the statement leaves
// nothing to break or to apply; with lines taken out, exactly their payouts are missing at the bank; with
// amounts changed, exactly those lines are amount mismatches.

type Fate = 'paid' | 'reversed' | 'pending' | 'failed';

/** One payout as the generator makes it: what the bank did with it, and when (epoch ms). */
interface GeneratedPayout {
  reference: string;
  utr: string;
  amountPaise: bigint;
  mode: 'IMPS' | 'UPI';
  beneficiaryName: string;
  fate: Fate;
  acceptedAt: number;
  paidAt: number;
  reversedAt: number;
}

const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const chars = (alphabet: string, length: number) =>
  fc.array(fc.constantFrom(...Array.from(alphabet)), { minLength: length, maxLength: length }).map((c) => c.join(''));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Three IST midnights: a payout is accepted within 90 minutes of one, so its acceptance, payment and return
// fall either side of a day's end as often as not.
const MIDNIGHTS = ['2026-11-25', '2026-11-26', '2026-11-27'].map((day) => Date.parse(`${day}T00:00:00+05:30`));
/** After every generated movement: no line is dated in the future. */
const TODAY = '2026-11-30';

const generatedPayout = fc.record({
  reference: chars(BASE32, 18).map((rest) => `0K${rest}`),
  utr: chars('0123456789', 12),
  // A `.83` payout is booked in bulk, in one debit recon matches only to a batch of our books
  // (apps/rail-sim/src/statement-export.test.ts shows it); these payouts come in no batch.
  amountPaise: fc.bigInt({ min: 1n, max: 10n ** 11n }).filter((paise) => !isBookedInBulk(paise)),
  mode: fc.constantFrom('IMPS' as const, 'UPI' as const),
  beneficiaryName: fc.constantFrom('Ravi Kumar', 'Priya Sharma', "Asha O'Brien"),
  fate: fc.constantFrom<Fate>('paid', 'reversed', 'pending', 'failed'),
  acceptedAt: fc
    .tuple(fc.constantFrom(...MIDNIGHTS), fc.integer({ min: -90 * MINUTE, max: 90 * MINUTE }))
    .map(([midnight, offset]) => midnight + offset),
  // A `.22` or `.66` payout is paid a while after it is accepted; most are paid at once.
  paidAfter: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 * HOUR })),
  returnedAfter: fc.integer({ min: MINUTE, max: 30 * HOUR }),
});

/** Payouts with distinct references and UTRs, at least one of which moved money. */
const generatedBook = fc
  .uniqueArray(generatedPayout, {
    minLength: 1,
    maxLength: 12,
    selector: (p) => p.reference,
  })
  .filter((payouts) => new Set(payouts.map((p) => p.utr)).size === payouts.length)
  .filter((payouts) => payouts.some((p) => p.fate === 'paid' || p.fate === 'reversed'))
  .map((payouts) =>
    payouts.map(({ paidAfter, returnedAfter, ...p }): GeneratedPayout => ({
      ...p,
      paidAt: p.acceptedAt + paidAfter,
      reversedAt: p.acceptedAt + paidAfter + returnedAfter,
    })),
  );

const BANK_STATUS: Record<Fate, string> = {
  paid: 'SUCCESS',
  reversed: 'REVERSED',
  pending: 'PENDING',
  failed: 'FAILED',
};
const OUR_STATE: Record<Fate, PayoutState> = {
  paid: 'SUCCESS',
  reversed: 'REVERSED',
  pending: 'AWAITING_RAIL',
  failed: 'FAILED',
};
const moved = (p: GeneratedPayout) => p.fate === 'paid' || p.fate === 'reversed';

/** The payout in rail-sim's book. */
function bankSide(p: GeneratedPayout): BookedPayout {
  return {
    reference: p.reference,
    amountPaise: p.amountPaise,
    status: BANK_STATUS[p.fate],
    ...(moved(p) && { utr: p.utr, paidAt: p.paidAt }),
    ...(p.fate === 'reversed' && { reversedAt: p.reversedAt }),
    mode: p.mode,
    beneficiaryName: p.beneficiaryName,
    acceptedAt: p.acceptedAt,
  };
}

/** The same payout in our books. */
function ourSide(p: GeneratedPayout, index: number): BookPayout {
  return {
    id: BigInt(index + 1),
    ackNo: p.reference,
    state: OUR_STATE[p.fate],
    amountPaise: p.amountPaise,
    bankReference: moved(p) ? p.utr : null,
    settledOn: moved(p) ? istDate(p.paidAt) : p.fate === 'failed' ? istDate(p.acceptedAt) : null,
    sentOn: istDate(p.acceptedAt),
    // Reversed here when the rail said so: the day the bank's book records the return.
    reversedOn: p.fate === 'reversed' ? istDate(p.reversedAt) : null,
    beneficiaryName: p.beneficiaryName,
    batch: null,
  };
}

/** The days on which money of the payouts moved: the days whose statement has lines of ours. */
function movementDays(payouts: readonly GeneratedPayout[]): string[] {
  const days = payouts
    .filter(moved)
    .flatMap((p) => [istDate(p.paidAt), ...(p.fate === 'reversed' ? [istDate(p.reversedAt)] : [])]);
  return [...new Set(days)].sort();
}

/** A book, one of its days with movements, and a layout. */
const dayOfABook = generatedBook.chain((payouts) =>
  fc.record({
    payouts: fc.constant(payouts),
    day: fc.constantFrom(...movementDays(payouts)),
    format: fc.constantFrom(...STATEMENT_FORMATS),
  }),
);

type Statement = ReturnType<typeof bankStatementFor>;
type Entry = Statement['entries'][number];

/** Reads the statement as `recon statement` does and matches it against our books of the payouts. */
function reconcile(statement: Statement, format: StatementExportFormat, payouts: readonly GeneratedPayout[]) {
  const file = acceptStatementFile(renderStatement(statement, format).text, {
    settlementAccount: SETTLEMENT_ACCOUNT.number,
  });
  if (!file.ok) throw new Error(`the ${format} statement was refused: ${file.reason}`);
  return matchStatement(file.lines, file.valueDates, payouts.map(ourSide), { today: TODAY });
}

const unresolved = (items: readonly ReconItem[]) =>
  items
    .filter((item) => !item.resolved)
    .map((item) => `${item.class} ${item.reference}${item.line ? ` ${item.line.type}` : ''}`)
    .sort();

/** The day's movements of our payouts, which are the entries a test may take out or change. */
function payoutEntries(statement: Statement): number[] {
  return statement.entries.flatMap((entry, index) => (entry.class === 'bank_charge' ? [] : [index]));
}

const signed = (entry: Entry) => (entry.type === 'DEBIT' ? -entry.amountPaise : entry.amountPaise);

// The changes below are made to the statement before it is written, not to the file: a file whose
// balances do not add up is refused whole (docs/reconciliation-formats.md), so a line cut out of an MT940
// or camt.053 file would test the balance check, not the matcher. A changed entry moves the closing
// balance with it, as it would on a statement the bank had booked that way.

/** The statement without the entries at `removed`, its closing balance without their movement. */
function without(statement: Statement, removed: ReadonlySet<number>): Statement {
  const taken = statement.entries.filter((_, index) => removed.has(index));
  return {
    ...statement,
    entries: statement.entries.filter((_, index) => !removed.has(index)),
    closingBalancePaise: statement.closingBalancePaise - taken.reduce((sum, entry) => sum + signed(entry), 0n),
  };
}

/** The statement with the amounts at `changed` raised by their paise, its closing balance moved with them. */
function withAmountsRaised(statement: Statement, changed: ReadonlyMap<number, bigint>): Statement {
  const entries = statement.entries.map((entry, index) => {
    const raise = changed.get(index);
    return raise === undefined ? entry : { ...entry, amountPaise: entry.amountPaise + raise };
  });
  const closingBalancePaise =
    statement.closingBalancePaise +
    entries.reduce((sum, entry, i) => sum + signed(entry) - signed(statement.entries[i]!), 0n);
  return { ...statement, entries, closingBalancePaise };
}

const RUNS = 60;

describe('rail-sim’s statement against our books of the same payouts', () => {
  it('when nothing is changed, then every line and payout of the day is matched, with nothing to apply', () => {
    assertProperty(
      fc.property(dayOfABook, ({ payouts, day, format }) => {
        const items = reconcile(bankStatementFor(payouts.map(bankSide), day), format, payouts);

        expect(unresolved(items)).toEqual([]);
        expect(planActions(items)).toEqual([]);
        const debits = payouts.filter((p) => moved(p) && istDate(p.paidAt) === day);
        const returns = payouts.filter((p) => p.fate === 'reversed' && istDate(p.reversedAt) === day);
        expect(items.map((item) => `${item.reference} ${item.line?.type}`).sort()).toEqual(
          [...debits.map((p) => `${p.reference} DEBIT`), ...returns.map((p) => `${p.reference} RETURN`)].sort(),
        );
      }),
      RUNS,
      import.meta.url,
    );
  });

  it('when lines are taken out, then exactly the payouts of the lines taken out are missing at the bank', () => {
    const removal = dayOfABook.chain((day) => {
      const statement = bankStatementFor(day.payouts.map(bankSide), day.day);
      const lines = payoutEntries(statement);
      // The canonical CSV carries no statement date: its days are its lines' dates, so a CSV with every
      // line taken out is the statement of no day, and nothing of any day can be missing from it.
      const kept = day.format === 'csv' ? 1 : 0;
      return fc.subarray(lines, { maxLength: lines.length - kept }).map((removed) => ({ ...day, statement, removed }));
    });
    assertProperty(
      fc.property(removal, ({ payouts, format, statement, removed }) => {
        fc.pre(removed.length > 0);
        const items = reconcile(without(statement, new Set(removed)), format, payouts);

        // A debit taken out is a payout paid here that the bank did not pay; a return taken out, a payout
        // reversed here whose money the bank did not bring back.
        const missing = removed.map((index) => statement.entries[index]!);
        expect(unresolved(items)).toEqual(
          missing
            .map((entry) =>
              entry.type === 'DEBIT'
                ? `success_here_missing_at_bank ${entry.reference}`
                : `reversed_here_missing_at_bank ${entry.reference}`,
            )
            .sort(),
        );
        expect(planActions(items)).toEqual([]);
      }),
      RUNS,
      import.meta.url,
    );
  });

  it('when amounts are changed, then exactly those lines are amount mismatches', () => {
    const change = dayOfABook.chain((day) => {
      const statement = bankStatementFor(day.payouts.map(bankSide), day.day);
      const changes = fc.uniqueArray(
        fc.tuple(fc.constantFrom(...payoutEntries(statement)), fc.bigInt({ min: 1n, max: 10n ** 9n })),
        { minLength: 1, selector: ([index]) => index },
      );
      return changes.map((changed) => ({ ...day, statement, changed: new Map(changed) }));
    });
    assertProperty(
      fc.property(change, ({ payouts, format, statement, changed }) => {
        const items = reconcile(withAmountsRaised(statement, changed), format, payouts);

        expect(unresolved(items)).toEqual(
          [...changed.keys()]
            .map((index) => statement.entries[index]!)
            .map((entry) => `amount_mismatch ${entry.reference} ${entry.type}`)
            .sort(),
        );
        expect(planActions(items)).toEqual([]);
      }),
      RUNS,
      import.meta.url,
    );
  });
});
