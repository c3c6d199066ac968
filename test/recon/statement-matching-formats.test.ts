import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { settleSuccess, type PayoutSummary } from '@payout/db';
import { renderCamt053, renderMt940, type RenderableStatement } from '@payout/recon';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { useApi } from '../support/api.js';
import { statementApplied } from '../support/approvals.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, statementFile, type StatementRunJson } from './statement-support.js';

// Matching beyond the reference through the bank formats (docs/reconciliation.md, "Matching beyond the
// reference"): a bank's debit that carries no reference of ours reaches the matcher with its narration, so
// through MT940, camt.053 and a bank's CSV export alike a narrated UTR names its payout, a narrated batch id
// its batch, a beneficiary's name makes a suggestion, and a debit of nothing known is an unknown reference.
// `pnpm cli recon statement --apply` settles none of them.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type RunJson = StatementRunJson;

const digits = (n: number) => Array.from({ length: n }, () => randomInt(0, 10)).join('');
const rupees = (paise: bigint) => `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
const note = { reason: 'test: the worker settled it', actor: 'test' };

/** A bulk batch as the API records it, of payouts already accepted. */
async function bulkBatchOf(merchantId: number, payouts: readonly PayoutSummary[], batchId: string) {
  await prisma.bulkBatch.create({
    data: {
      merchantId,
      batchId,
      itemsDigest: '0'.repeat(64),
      total: payouts.length,
      items: { create: payouts.map((p, itemIndex) => ({ itemIndex, payoutId: p.id })) },
    },
  });
}

/** Our side of the day: a payout settled with a UTR, a paid batch and its twin, one still at the rail. */
async function books() {
  const merchant = await makeMerchant(prisma, { balance: '50000.00' });
  // Amounts no other payout of the day has: a suggestion looks at every payout of the amount.
  const base = BigInt(randomInt(50_000, 500_000));
  const atTheRail = (offset: bigint) => payoutAtTheRail(prisma, merchant, { amountPaise: base + offset });
  const byUtr = await atTheRail(1n);
  const utr = digits(12);
  await settleSuccess(prisma, byUtr.id, utr, note);
  const batch = [await atTheRail(3n), await atTheRail(4n)];
  for (const p of batch) await settleSuccess(prisma, p.id, digits(12), note);
  // Its twin of the same total, also sent today: the total alone cannot tell them apart, the name can.
  const twin = [await atTheRail(2n), await atTheRail(5n)];
  const batchId = digits(8);
  await bulkBatchOf(merchant.merchant.id, batch, batchId);
  await bulkBatchOf(merchant.merchant.id, twin, digits(8));
  const suggested = await atTheRail(6n);
  return { byUtr, utr, batch, batchId, suggested, unknownPaise: base + 8n };
}

type Day = Awaited<ReturnType<typeof books>>;

/** The bank's day: four debits with no reference of ours, only narrations, and a charge. */
function statementOf(day: Day, account: string): RenderableStatement {
  const debit = (amountPaise: bigint, narration: string) =>
    ({ valueDate: istToday(), type: 'DEBIT', amountPaise, narration, class: 'unknown' }) as const;
  const entries = [
    debit(day.byUtr.amountPaise, `IMPS-${day.utr}-ASHA KUMAR-SBIN`),
    debit(day.batch[0]!.amountPaise + day.batch[1]!.amountPaise, `BULK PAYOUT ${day.batchId} ACME`),
    debit(day.suggested.amountPaise, 'NEFT PAYMENT ASHA KUMAR'),
    debit(day.unknownPaise, 'TRANSFER TO A PARTY'),
    { valueDate: istToday(), type: 'DEBIT', amountPaise: 590n, narration: 'IMPS CHG', class: 'bank_charge' } as const,
  ];
  const opening = 100_000_000n;
  return {
    id: `STMT${digits(8)}`,
    account,
    sequence: 1,
    statementDate: istToday(),
    openingBalancePaise: opening,
    closingBalancePaise: entries.reduce((balance, e) => balance - e.amountPaise, opening),
    currency: 'INR',
    entries,
  };
}

/** The day as an HDFC-style net-banking export (packages/recon/profiles/hdfc-style.json). */
function hdfcExport(statement: RenderableStatement): string {
  const date = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}`;
  let balance = statement.openingBalancePaise;
  const rows = statement.entries.map((e) => {
    balance -= e.amountPaise;
    return `${date(e.valueDate)},${e.narration},,${date(e.valueDate)},${rupees(e.amountPaise)},,${rupees(balance)}`;
  });
  const header = 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance';
  return ['HDFC BANK LTD', `Account No :${statement.account}   CURRENT ACCOUNT`, '', header, ...rows, ''].join('\n');
}

describe.each([
  { format: 'MT940', file: 'statement.mt940', render: renderMt940, options: [] },
  {
    format: 'camt.053',
    file: 'statement.xml',
    render: (s: RenderableStatement) => renderCamt053(s, '08'),
    options: [],
  },
  { format: 'a bank CSV export', file: 'statement.csv', render: hdfcExport, options: ['--profile', 'hdfc-style'] },
])('pnpm cli recon statement, $format without our reference', ({ file, render, options }) => {
  it('when debits narrate only a UTR, a batch id, a beneficiary or nothing known, then they are matched, paid as a batch, suggested and unknown, and --apply settles none', async () => {
    const day = await books();
    const path = await statementFile(render(statementOf(day, digits(14))), file);

    const result = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path, ...options);
    const report = JSON.parse(result.stdout) as RunJson;

    expect(result.status).toBe(1);
    expect(report.counts).toMatchObject({
      matched: 3,
      suggested_match: 1,
      unknown_reference: 1,
      pending_here_paid_at_bank: 0,
      applied: 0,
    });
    expect(report.setAside.map((s) => s.why)).toEqual(['a bank charge']);
    const ours = new Set([day.byUtr, ...day.batch].map((p) => p.ackNo));
    expect(report.breaks.filter((b) => ours.has(b.reference))).toEqual([]);
    const suggestion = report.breaks.find((b) => b.kind === 'suggested_match');
    expect(suggestion?.candidates?.map((c) => c.ack_no)).toEqual([day.suggested.ackNo]);
    expect(report.plannedActions).toEqual([]);
    const { rows } = await pool.query('SELECT state::text FROM payouts WHERE id = $1', [day.suggested.id]);
    expect(rows).toEqual([{ state: 'SUBMITTING' }]);
  });
});
