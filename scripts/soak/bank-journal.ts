import { readFile } from 'node:fs/promises';
import type { BankRecord } from '../../test/faults/payout-audit.js';

export interface BankBook {
  /** The bank's last word on each reference. */
  records: BankRecord[];
  /** References the bank reported paid under more than one UTR: paid twice. */
  paidTwice: string[];
  /** Lines in the journal (every change the bank made). */
  lines: number;
  /** When the bank first accepted each reference (epoch ms). */
  acceptedAt: Map<string, number>;
}

/**
 * Reads the rail simulator's state file: one JSON line per change to a reference, the last line of each
 * reference being its current state (docs/rail-sim.md). A reference seen with two different UTRs would
 * be a second payment of the same instruction.
 */
export async function readBankJournal(file: string): Promise<BankBook> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const latest = new Map<string, BankRecord>();
  const utrs = new Map<string, Set<string>>();
  const acceptedAt = new Map<string, number>();
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { reference: string; status: BankRecord['status']; utr?: string; accepted_at?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // a last line cut short by a kill was never answered (the simulator drops it too)
    }
    lines++;
    if (entry.accepted_at !== undefined && !acceptedAt.has(entry.reference))
      acceptedAt.set(entry.reference, Date.parse(entry.accepted_at));
    latest.set(entry.reference, { reference: entry.reference, status: entry.status, utr: entry.utr });
    if (entry.utr !== undefined) {
      const seen = utrs.get(entry.reference) ?? new Set<string>();
      seen.add(entry.utr);
      utrs.set(entry.reference, seen);
    }
  }
  const paidTwice = [...utrs.entries()]
    .filter(([, seen]) => seen.size > 1)
    .map(([reference, seen]) => `${reference}: UTRs ${[...seen].join(', ')}`);
  return { records: [...latest.values()], paidTwice, lines, acceptedAt };
}
