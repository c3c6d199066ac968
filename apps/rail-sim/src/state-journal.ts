import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { RAIL_FAILURE_REASONS } from '@payout/rails';
import { z } from 'zod';
import type { BankPayout } from './bank-payout.js';

const lineSchema = z.object({
  reference: z.string().min(1),
  mode: z.enum(['IMPS', 'UPI']),
  amount_paise: z.string().regex(/^[0-9]+$/),
  account: z.string(),
  ifsc: z.string().optional(),
  beneficiary_name: z.string(),
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING', 'REVERSED']),
  utr: z.string().optional(),
  reason: z.enum(RAIL_FAILURE_REASONS).optional(),
  accepted_at: z.iso.datetime(),
  settle_at: z.iso.datetime().optional(),
  reverse_at: z.iso.datetime().optional(),
  paid_at: z.iso.datetime().optional(),
  reversed_at: z.iso.datetime().optional(),
  visible_at: z.iso.datetime().optional(),
  refuse_duplicates: z.literal(true).optional(),
  submissions: z.number().int().positive(),
});
type JournalLine = z.infer<typeof lineSchema>;

/** Raised at start-up for a state file the simulator cannot trust; it refuses to guess what it paid. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/**
 * The simulated bank's memory across restarts: one JSON line per change to a reference, each line the whole
 * record after the change, so replaying keeps the last line of each reference. Lines are written with a
 * synchronous append, so a reply the bank sends is already in the file (the page cache: it survives the
 * process dying, not the machine losing power, which is all a simulator needs).
 */
export class StateJournal {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  /** Reads the file back; a last line cut short by a crash is removed, since it was never answered. */
  replay(): BankPayout[] {
    if (!existsSync(this.path)) return [];
    const text = readFileSync(this.path, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) truncateSync(this.path, Buffer.byteLength(text.slice(0, complete)));

    const latest = new Map<string, BankPayout>();
    text
      .slice(0, complete)
      .split('\n')
      .forEach((line, index) => {
        if (line.trim() === '') return;
        const payout = this.#parseLine(line, index + 1);
        latest.set(payout.reference, payout);
      });
    return [...latest.values()];
  }

  append(payout: BankPayout): void {
    appendFileSync(this.path, `${JSON.stringify(toLine(payout))}\n`);
  }

  #parseLine(line: string, lineNumber: number): BankPayout {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new StateFileError(`${this.path}:${lineNumber}: not JSON`);
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new StateFileError(`${this.path}:${lineNumber}: ${problems}`);
    }
    return fromLine(parsed.data);
  }
}

function toLine(payout: BankPayout): JournalLine {
  return {
    reference: payout.reference,
    mode: payout.mode,
    amount_paise: payout.amountPaise.toString(),
    account: payout.account,
    ifsc: payout.ifsc,
    beneficiary_name: payout.beneficiaryName,
    status: payout.status,
    utr: payout.utr,
    reason: payout.reason,
    accepted_at: new Date(payout.acceptedAt).toISOString(),
    settle_at: payout.settleAt === undefined ? undefined : new Date(payout.settleAt).toISOString(),
    reverse_at: payout.reverseAt === undefined ? undefined : new Date(payout.reverseAt).toISOString(),
    paid_at: payout.paidAt === undefined ? undefined : new Date(payout.paidAt).toISOString(),
    reversed_at: payout.reversedAt === undefined ? undefined : new Date(payout.reversedAt).toISOString(),
    visible_at: payout.visibleAt === undefined ? undefined : new Date(payout.visibleAt).toISOString(),
    refuse_duplicates: payout.refuseDuplicates ? true : undefined,
    submissions: payout.submissions,
  };
}

function fromLine(line: JournalLine): BankPayout {
  return {
    reference: line.reference,
    mode: line.mode,
    amountPaise: BigInt(line.amount_paise),
    account: line.account,
    ...(line.ifsc === undefined ? {} : { ifsc: line.ifsc }),
    beneficiaryName: line.beneficiary_name,
    status: line.status,
    ...(line.utr === undefined ? {} : { utr: line.utr }),
    ...(line.reason === undefined ? {} : { reason: line.reason }),
    acceptedAt: Date.parse(line.accepted_at),
    ...(line.settle_at === undefined ? {} : { settleAt: Date.parse(line.settle_at) }),
    ...(line.reverse_at === undefined ? {} : { reverseAt: Date.parse(line.reverse_at) }),
    ...(line.paid_at === undefined ? {} : { paidAt: Date.parse(line.paid_at) }),
    ...(line.reversed_at === undefined ? {} : { reversedAt: Date.parse(line.reversed_at) }),
    ...(line.visible_at === undefined ? {} : { visibleAt: Date.parse(line.visible_at) }),
    ...(line.refuse_duplicates === undefined ? {} : { refuseDuplicates: true }),
    submissions: line.submissions,
  };
}
