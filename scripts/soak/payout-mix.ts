import { SeededRandom } from './seeded-random.js';

/** REVERSED: paid, then the money came back — FAILED to the merchant, the amount back in the wallet. */
export type Expected = 'SUCCESS' | 'FAILED' | 'PENDING' | 'REVERSED';

/** One payout the soak will send, and what the rail simulator's magic values say must become of it. */
export interface PlannedPayout {
  index: number;
  merchant: number;
  mode: 'IMPS' | 'UPI';
  path: '/api/impspayout' | '/api/payout';
  body: Record<string, string>;
  amountPaise: bigint;
  /** The magic value chosen, for the report. */
  flavour: Flavour;
  expected: Expected;
  /**
   * The index of the payout leading the bulk batch (POST /api/bulkpayout) this one is sent in, or null when
   * it is sent alone. The leader sends the batch when its own turn comes.
   */
  batch: number | null;
}

type Flavour =
  | 'ordinary'
  | 'declined .11'
  | 'settles later .22'
  | 'reply lost, paid .33'
  | 'rail 503 twice .44'
  | 'pending for ever .55'
  | 'reply lost, declined .77'
  | 'invalid beneficiary'
  // Real banks' manners (docs/rail-sim.md, docs/bank-boundary.md), faults of the bank rather than of our processes.
  | 'deemed success .66'
  | 'reply lost, status lags, resubmit refused .88'
  | 'garbled reply .91-.94'
  | 'paid, then reversed .99';

// The mix of rail behaviours (weights out of 100), with the outcome each must end in (docs/rail-sim.md).
const MIX: { flavour: Flavour; weight: number; paise: number | null; expected: Expected }[] = [
  { flavour: 'ordinary', weight: 41, paise: null, expected: 'SUCCESS' },
  { flavour: 'declined .11', weight: 7, paise: 11, expected: 'FAILED' },
  { flavour: 'settles later .22', weight: 8, paise: 22, expected: 'SUCCESS' },
  { flavour: 'reply lost, paid .33', weight: 6, paise: 33, expected: 'SUCCESS' },
  { flavour: 'rail 503 twice .44', weight: 6, paise: 44, expected: 'SUCCESS' },
  { flavour: 'pending for ever .55', weight: 3, paise: 55, expected: 'PENDING' },
  { flavour: 'reply lost, declined .77', weight: 6, paise: 77, expected: 'FAILED' },
  { flavour: 'invalid beneficiary', weight: 9, paise: null, expected: 'FAILED' },
  { flavour: 'deemed success .66', weight: 3, paise: 66, expected: 'SUCCESS' },
  { flavour: 'reply lost, status lags, resubmit refused .88', weight: 4, paise: 88, expected: 'SUCCESS' },
  { flavour: 'garbled reply .91-.94', weight: 4, paise: 91, expected: 'SUCCESS' },
  { flavour: 'paid, then reversed .99', weight: 3, paise: 99, expected: 'REVERSED' },
];
// Every paise value rail-sim reads as an instruction (docs/rail-sim.md), kept out of ordinary payouts: .83
// makes the bank book the day's .83 payouts as one line, which the soak's payouts in no batch cannot match.
const MAGIC = new Set([11, 22, 33, 44, 55, 66, 77, 83, 88, 91, 92, 93, 94, 99]);

/** The payouts of a seed: which merchant sends what, in which order, to whom. */
export function planPayouts(seed: number, count: number, merchants: number): PlannedPayout[] {
  const random = new SeededRandom(seed ^ 0x0a11_0475);
  const total = MIX.reduce((sum, m) => sum + m.weight, 0);
  const planned = Array.from({ length: count }, (_, index): PlannedPayout => {
    let roll = random.int(1, total);
    const kind = MIX.find((m) => (roll -= m.weight) <= 0)!;
    const mode = random.next() < 0.5 ? 'IMPS' : 'UPI';
    let paise = kind.paise === 91 ? random.int(91, 94) : kind.paise;
    while (paise === null || (kind.paise === null && MAGIC.has(paise))) paise = random.int(0, 99);
    const rupees = random.int(1, 500);
    const amountPaise = BigInt(rupees * 100 + paise);
    const amount = `${rupees}.${String(paise).padStart(2, '0')}`;
    const invalid = kind.flavour === 'invalid beneficiary';
    const common = {
      Name: `Beneficiary ${index}`,
      Mobile: '9876543210',
      Email: `payee${index}@example.com`,
      Amount: amount,
      Description: `soak ${index}`,
      TransactionID: String(1_000_000 + index),
    };
    const body =
      mode === 'IMPS'
        ? {
            ...common,
            BankName: 'HDFC Bank',
            Account: invalid
              ? `0000${String(random.int(100_000, 999_999))}`
              : String(random.int(100_000_000, 999_999_999_999)),
            Ifsc: 'HDFC0001234',
          }
        : { ...common, Upi: invalid ? `invalid.payee${index}@okbank` : `payee${index}@okhdfc` };
    return {
      index,
      merchant: random.int(0, merchants - 1),
      mode,
      path: mode === 'IMPS' ? '/api/impspayout' : '/api/payout',
      body,
      amountPaise,
      flavour: kind.flavour,
      expected: kind.expected,
      batch: null,
    };
  });
  groupIntoBatches(planned, seed);
  return planned;
}

// About a quarter of the payouts go in bulk batches of 2–12 (POST /api/bulkpayout): the same rail behaviours,
// the same invariants, through the batch path. Drawn from a random of their own, so the payouts themselves
// are those the seed always gave.
const BATCH_START_CHANCE = 0.06;
const BATCH_SIZE = { min: 2, max: 12 };
/** A batch takes its merchant's next payouts from this many planned after its leader. */
const BATCH_REACH = 80;

function groupIntoBatches(planned: PlannedPayout[], seed: number): void {
  const random = new SeededRandom(seed ^ 0x0b07_c4e5);
  for (const leader of planned) {
    if (leader.batch !== null || random.next() >= BATCH_START_CHANCE) continue;
    const size = random.int(BATCH_SIZE.min, BATCH_SIZE.max);
    const members = planned
      .slice(leader.index, leader.index + BATCH_REACH)
      .filter((p) => p.merchant === leader.merchant && p.batch === null)
      .slice(0, size);
    if (members.length < BATCH_SIZE.min) continue;
    for (const member of members) member.batch = leader.index;
  }
}

/** The payouts of each batch, by its leader's index. */
export function batchesOf(planned: readonly PlannedPayout[]): Map<number, PlannedPayout[]> {
  const batches = new Map<number, PlannedPayout[]>();
  for (const p of planned) {
    if (p.batch === null) continue;
    batches.set(p.batch, [...(batches.get(p.batch) ?? []), p]);
  }
  return batches;
}
