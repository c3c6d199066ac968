import type { BankRecord } from '../../test/faults/payout-audit.js';
import type { BankBook } from './bank-journal.js';

// The two-bank soak's rule (docs/banks.md; docs/reliability.md, "Two banks"): a payout goes to a second bank
// only after its first bank said definitively that it did not and will not pay it. Checked against the
// banks' own journals, not our books: a reference both banks recorded must have been refused for good
// by the one that recorded it first, and no reference may be paid by both.

/** What the banks' journals, side by side, say about where each reference went. */
export interface BanksAudit {
  /** One record per reference for the payout audit: the bank that paid it, else the one that had it last. */
  records: BankRecord[];
  /** The bank each reference is with, by the same rule. */
  bankOf: Map<string, string>;
  /** References both banks recorded while the first had not refused them for good. */
  sentToTwoBanks: string[];
  /** References paid by two banks. */
  paidByTwoBanks: string[];
  /** References the first bank refused for good (FAILED) and another bank then took: allowed. */
  movedAfterRefusal: string[];
}

const paid = (record: BankRecord) => record.status === 'SUCCESS' || record.status === 'REVERSED';

/** Audits the banks' journals (by bank name) together. */
export function auditBanks(books: ReadonlyMap<string, BankBook>): BanksAudit {
  const byReference = new Map<string, { bank: string; record: BankRecord; acceptedAt: number }[]>();
  for (const [bank, book] of books) {
    for (const record of book.records) {
      const held = byReference.get(record.reference) ?? [];
      held.push({ bank, record, acceptedAt: book.acceptedAt.get(record.reference) ?? 0 });
      byReference.set(record.reference, held);
    }
  }
  const audit: BanksAudit = {
    records: [],
    bankOf: new Map(),
    sentToTwoBanks: [],
    paidByTwoBanks: [],
    movedAfterRefusal: [],
  };
  for (const [reference, held] of byReference) {
    held.sort((a, b) => a.acceptedAt - b.acceptedAt);
    const payers = held.filter((h) => paid(h.record));
    const kept = payers[0] ?? held.at(-1)!;
    audit.records.push(kept.record);
    audit.bankOf.set(reference, kept.bank);
    if (held.length < 2) continue;
    const describe = held.map((h) => `${h.bank} ${h.record.status}`).join(', then ');
    if (payers.length > 1) audit.paidByTwoBanks.push(`${reference}: ${describe}`);
    // Every bank before the last must have refused it for good.
    if (held.slice(0, -1).every((h) => h.record.status === 'FAILED')) audit.movedAfterRefusal.push(reference);
    else audit.sentToTwoBanks.push(`${reference}: ${describe}`);
  }
  return audit;
}
