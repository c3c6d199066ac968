import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBankProfile } from './formats/bank-csv.js';
import { renderCamt053 } from './formats/render-camt053.js';
import { renderMt940, type RenderableStatement } from './formats/render-mt940.js';
import { acceptStatementFile } from './statement-file.js';
import { matchStatement, type BookPayout } from './statement-matcher.js';
import { planActions } from './statement-run.js';

// Matching beyond our reference through the bank formats (docs/reconciliation.md, "Matching beyond the
// reference"; docs/reconciliation-formats.md): a debit without our reference reaches the matcher with its
// narration, so a narrated UTR, a batch named in the narration and a beneficiary's name are each found.

const DAY = '2026-11-24';
const calendar = { today: '2026-11-30' };

/** The day's movements, none carrying our reference: only what the bank narrates. */
const MOVEMENTS = [
  {
    amountPaise: 100000n,
    narration: { swift: 'IMPS/912807471309/RAVI KUMAR/SBIN', hdfc: 'IMPS-912807471309-RAVI KUMAR-SBIN' },
  },
  {
    amountPaise: 60000n,
    narration: { swift: 'IMPS/912807471555/MEERA NAIR/UTIB', hdfc: 'IMPS-912807471555-MEERA NAIR-UTIB' },
  },
  { amountPaise: 350000n, narration: { swift: 'BULK PAYOUT BATCH B7781 ACME', hdfc: 'BULK PAYOUT BATCH B7781 ACME' } },
  { amountPaise: 77700n, narration: { swift: 'NEFT PAYMENT PRIYA SHARMA', hdfc: 'NEFT PAYMENT PRIYA SHARMA' } },
  { amountPaise: 432100n, narration: { swift: 'TRANSFER TO A PARTY', hdfc: 'TRANSFER TO A PARTY' } },
] as const;
const CHARGE = 590n;
const OPENING = 10_000_000n;
const CLOSING = OPENING - MOVEMENTS.reduce((sum, m) => sum + m.amountPaise, 0n) - CHARGE;

function statementOf(style: 'swift' | 'hdfc'): RenderableStatement {
  return {
    id: 'STMT2611240123',
    account: '50200012345678',
    sequence: 123,
    statementDate: DAY,
    openingBalancePaise: OPENING,
    closingBalancePaise: CLOSING,
    currency: 'INR',
    entries: [
      ...MOVEMENTS.map((m) => ({
        valueDate: DAY,
        type: 'DEBIT' as const,
        amountPaise: m.amountPaise,
        narration: m.narration[style],
        class: 'unknown' as const,
      })),
      { valueDate: DAY, type: 'DEBIT', amountPaise: CHARGE, narration: 'IMPS CHG', class: 'bank_charge' },
    ],
  };
}

/** The same day as an HDFC-style net-banking export (packages/recon/profiles/hdfc-style.json). */
function hdfcExport(): string {
  let balance = OPENING;
  const rows = statementOf('hdfc').entries.map((e) => {
    balance -= e.amountPaise;
    return `24/11/26,${e.narration},,24/11/26,${rupees(e.amountPaise)},,${rupees(balance)}`;
  });
  return [
    'HDFC BANK LTD',
    'Account No :50200012345678   CURRENT ACCOUNT',
    '',
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
    ...rows,
    '',
  ].join('\n');
}

const rupees = (paise: bigint) => `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
const hdfc = parseBankProfile(readFileSync(new URL('../profiles/hdfc-style.json', import.meta.url), 'utf8'));

const FORMATS = [
  ['MT940', () => renderMt940(statementOf('swift')), {}],
  ['camt.053', () => renderCamt053(statementOf('swift'), '08'), {}],
  ['an HDFC-style CSV export', hdfcExport, { profile: hdfc.ok ? hdfc.profile : undefined }],
] as const;

function payout(id: number, over: Partial<BookPayout>): BookPayout {
  return {
    id: BigInt(id),
    ackNo: `01MCC5RM00${id}QX2KD9F4T`,
    state: 'SUCCESS',
    amountPaise: 0n,
    bankReference: null,
    settledOn: DAY,
    sentOn: DAY,
    beneficiaryName: 'Someone Else',
    batch: null,
    ...over,
  };
}

const batch = { key: '7', batchId: 'B7781', payouts: 2 };
const BOOKS = [
  payout(1, { amountPaise: 100000n, bankReference: '912807471309', beneficiaryName: 'Ravi Kumar' }),
  // Still at the rail here; the bank narrates the UTR the rail gave it.
  payout(2, { amountPaise: 60000n, state: 'SUBMITTING', settledOn: null, bankReference: '912807471555' }),
  // Sent the day before: only its id in the narration, not its total, can name the batch.
  payout(3, { amountPaise: 200000n, sentOn: '2026-11-23', batch }),
  payout(4, { amountPaise: 150000n, sentOn: '2026-11-23', batch }),
  payout(5, { amountPaise: 77700n, state: 'SUBMITTING', settledOn: null, beneficiaryName: 'Priya Sharma' }),
  payout(6, { amountPaise: 77700n, state: 'SUBMITTING', settledOn: null, beneficiaryName: 'Anil Rao' }),
];

describe('a debit without our reference, through each bank format', () => {
  it.each(FORMATS)(
    'when %s narrates a UTR, a batch id, a beneficiary or nothing known, then each is matched, paid as a batch, suggested or unknown, and none is settled',
    (_format, render, options) => {
      const file = acceptStatementFile(render(), options);
      expect(file.ok).toBe(true);
      if (!file.ok) return;
      // Only the charge is set aside: every debit goes to the matcher, with its narration.
      expect(file.setAside.map((s) => s.why)).toEqual(['a bank charge']);
      expect(file.lines.every((l) => l.withoutOurReference === true && l.narration !== undefined)).toBe(true);

      const items = matchStatement(file.lines, file.valueDates, BOOKS, calendar);
      const summary = items.map((i) => [i.class, i.payout?.id ?? null, i.line?.amountPaise ?? null]);
      expect(summary).toEqual([
        ['matched', 1n, 100000n],
        ['pending_here_paid_at_bank', 2n, 60000n],
        ['matched', 3n, 350000n],
        ['matched', 4n, 350000n],
        ['suggested_match', null, 77700n],
        ['unknown_reference', null, 432100n],
      ]);
      expect(items[4]!.candidates?.map((p) => p.id)).toEqual([5n]);
      // A debit the bank names only by a narrated UTR is not proof enough to settle the payout.
      expect(planActions(items)).toEqual([]);
    },
  );
});
