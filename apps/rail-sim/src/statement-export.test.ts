import { describe, expect, it } from 'vitest';
import { acceptStatementFile, matchStatement, parseStatement, type BookPayout } from '@payout/recon';
import { createRailSim } from './rail-sim.js';
import { SETTLEMENT_ACCOUNT, statementFile, statementNumber, type BookedPayout } from './statement-export.js';

// The book of a simulated bank over two days (IST): on the 25th one payout paid; on the 26th one paid and
// one paid and then returned (a `.99` payout).
const at = (isoIst: string) => Date.parse(`${isoIst}+05:30`);
const BOOK: BookedPayout[] = [
  {
    reference: '01KAKX3T5QH4Z8M2N6PA',
    amountPaise: 250_000n,
    status: 'SUCCESS',
    utr: '912807471300',
    mode: 'IMPS',
    beneficiaryName: 'Ravi Kumar',
    acceptedAt: at('2026-11-25T10:00:00'),
  },
  {
    reference: '01KAKX3T5QH4Z8M2N6PB',
    amountPaise: 10_100n,
    status: 'SUCCESS',
    utr: '912807471301',
    mode: 'UPI',
    beneficiaryName: "Asha O'Brien-Kumar 2",
    acceptedAt: at('2026-11-26T09:00:00'),
  },
  {
    reference: '01KAKX3T5QH4Z8M2N6PC',
    amountPaise: 10_199n,
    status: 'REVERSED',
    utr: '912807471302',
    mode: 'IMPS',
    beneficiaryName: 'Priya Sharma',
    acceptedAt: at('2026-11-26T09:30:00'),
    reversedAt: at('2026-11-26T09:31:00'),
  },
  {
    reference: '01KAKX3T5QH4Z8M2N6PD',
    amountPaise: 5_000n,
    status: 'FAILED',
    acceptedAt: at('2026-11-26T11:00:00'),
  },
];

const options = { settlementAccount: SETTLEMENT_ACCOUNT.number };

describe.each(['mt940', 'camt053'] as const)('the %s statement rail-sim exports', (format) => {
  it('when it is read back, then its balances add up and its lines are the day’s movements with the charge set aside', () => {
    const read = acceptStatementFile(statementFile(BOOK, '2026-11-26', format).text, options);

    expect(read).toMatchObject({ ok: true });
    if (!read.ok) return;
    const [statement] = read.statements;
    expect(statement).toMatchObject({
      sequence: statementNumber('2026-11-26'),
      statementDate: '2026-11-26',
      currency: 'INR',
    });
    expect(statement!.closingBalancePaise! - statement!.openingBalancePaise!).toBe(-10_100n - 10_199n + 10_199n - 590n);
    expect(read.lines.map(({ reference, utr, amountPaise, type }) => ({ reference, utr, amountPaise, type }))).toEqual([
      { reference: '01KAKX3T5QH4Z8M2N6PB', utr: '912807471301', amountPaise: 10_100n, type: 'DEBIT' },
      { reference: '01KAKX3T5QH4Z8M2N6PC', utr: '912807471302', amountPaise: 10_199n, type: 'DEBIT' },
      { reference: '01KAKX3T5QH4Z8M2N6PC', utr: '912807471302', amountPaise: 10_199n, type: 'RETURN' },
    ]);
    expect(read.setAside).toEqual([
      expect.objectContaining({
        entry: expect.objectContaining({ type: 'DEBIT', amountPaise: 590n, class: 'bank_charge' }),
        why: 'a bank charge',
      }),
    ]);
    expect(read.valueDates).toEqual(['2026-11-26']);
  });

  it('when two days are read in turn, then the second opens at the first’s close and follows its number', () => {
    const first = acceptStatementFile(statementFile(BOOK, '2026-11-25', format).text, options);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const second = acceptStatementFile(statementFile(BOOK, '2026-11-26', format).text, {
      ...options,
      lastSequence: first.statements[0]!.sequence!,
    });

    expect(second).toMatchObject({ ok: true, notes: [] });
    if (!second.ok) return;
    expect(second.statements[0]!.openingBalancePaise).toBe(first.statements[0]!.closingBalancePaise);
    expect(first.statements[0]!.openingBalancePaise).toBe(
      SETTLEMENT_ACCOUNT.floatPaise - SETTLEMENT_ACCOUNT.dailyChargePaise * BigInt(statementNumber('2026-11-25') - 1),
    );
  });

  it('when it is checked against another settlement account, then it is refused', () => {
    const read = acceptStatementFile(statementFile(BOOK, '2026-11-26', format).text, {
      settlementAccount: '99999999999999',
    });

    expect(read).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not the settlement account 99999999999999/),
    });
  });
});

describe('the narration rail-sim writes', () => {
  it('when a payout is exported as MT940, then its :86: carries the rail, the UTR, our Ack_no and the name', () => {
    const { text } = statementFile(BOOK, '2026-11-26', 'mt940');

    expect(text).toContain(':25:SIMB0000001/50200012345678\r\n');
    expect(text).toContain(':86:UPI/P2A/912807471301/01KAKX3T5QH4Z8M2N6PB/ASHA O BRIEN KUMAR\r\n');
    expect(text).toContain(':86:IMPS RETURN/912807471302/01KAKX3T5QH4Z8M2N6PC/CREDIT RETURNED\r\n');
  });

  it('when a payout is exported as camt.053, then AddtlNtryInf carries the UTR and our Ack_no', () => {
    const { text, contentType } = statementFile(BOOK, '2026-11-26', 'camt053');

    expect(contentType).toBe('application/xml');
    expect(text).toContain('camt.053.001.08');
    expect(text).toContain('<AddtlNtryInf>IMPS/P2A/912807471302/01KAKX3T5QH4Z8M2N6PC/PRIYA SHARMA</AddtlNtryInf>');
  });

  it('when the day is exported as CSV, then it is the canonical statement without the charge', () => {
    const parsed = parseStatement(statementFile(BOOK, '2026-11-26', 'csv').text);

    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.lines.map((line) => `${line.reference} ${line.type}`)).toEqual([
      '01KAKX3T5QH4Z8M2N6PB DEBIT',
      '01KAKX3T5QH4Z8M2N6PC DEBIT',
      '01KAKX3T5QH4Z8M2N6PC RETURN',
    ]);
  });
});

// A day on which the bank pays three `.83` payouts — booked in bulk — and one other (docs/rail-sim.md).
const BULK_DAY = '2026-11-27';
const BULK_BOOK: BookedPayout[] = [
  ['01KAKX3T5QH4Z8M2N6Q1', 10_083n, 'IMPS'],
  ['01KAKX3T5QH4Z8M2N6Q2', 250_083n, 'UPI'],
  ['01KAKX3T5QH4Z8M2N6Q3', 7_083n, 'IMPS'],
  ['01KAKX3T5QH4Z8M2N6Q4', 10_050n, 'IMPS'],
].map(([reference, amountPaise, mode], i) => ({
  reference: reference as string,
  amountPaise: amountPaise as bigint,
  status: 'SUCCESS',
  utr: `91280747140${i}`,
  mode: mode as string,
  beneficiaryName: 'Ravi Kumar',
  acceptedAt: at(`${BULK_DAY}T1${i}:00:00`),
}));
const BULK_TOTAL = 10_083n + 250_083n + 7_083n;

/** Our books of the bulk day: the three `.83` payouts came in one bulk batch, sent that day. */
function booksOfBulkDay(): BookPayout[] {
  return BULK_BOOK.map((payout, i) => ({
    id: BigInt(i + 1),
    ackNo: payout.reference,
    state: 'SUCCESS',
    amountPaise: payout.amountPaise,
    bankReference: payout.utr!,
    settledOn: BULK_DAY,
    sentOn: BULK_DAY,
    batch: payout.amountPaise % 100n === 83n ? { key: 'merchant-1:B-77', batchId: 'B-77', payouts: 3 } : null,
  }));
}

describe.each(['csv', 'mt940', 'camt053'] as const)('the %s statement of a day with `.83` payouts', (format) => {
  it('when it is read and matched, then the bulk-booked payouts are one debit of their total that pays the batch', () => {
    const read = acceptStatementFile(statementFile(BULK_BOOK, BULK_DAY, format).text, options);

    expect(read).toMatchObject({ ok: true });
    if (!read.ok) return;
    expect(read.lines.map(({ reference, amountPaise, type }) => ({ reference, amountPaise, type }))).toEqual([
      { reference: '01KAKX3T5QH4Z8M2N6Q4', amountPaise: 10_050n, type: 'DEBIT' },
      { reference: 'BULK261127', amountPaise: BULK_TOTAL, type: 'DEBIT' },
    ]);
    const items = matchStatement(read.lines, read.valueDates, booksOfBulkDay(), { today: BULK_DAY });
    expect(items.map((item) => `${item.reference} ${item.class} ${item.resolved}`).sort()).toEqual([
      '01KAKX3T5QH4Z8M2N6Q1 matched true',
      '01KAKX3T5QH4Z8M2N6Q2 matched true',
      '01KAKX3T5QH4Z8M2N6Q3 matched true',
      '01KAKX3T5QH4Z8M2N6Q4 matched true',
    ]);
  });
});

describe('the bulk debit rail-sim writes', () => {
  it('when the day is exported as MT940, then the bulk debit is narrated BULK with the count and names no payout', () => {
    const { text } = statementFile(BULK_BOOK, BULK_DAY, 'mt940');

    expect(text).toContain(`:61:261127D${BULK_TOTAL / 100n},${BULK_TOTAL % 100n}NTRFNONREF//BULK261127\r\n`);
    expect(text).toContain(':86:BULK/3 PAYOUTS/27-11-2026\r\n');
    expect(text).not.toContain('01KAKX3T5QH4Z8M2N6Q1');
  });
});

describe('GET /v1/statement', () => {
  it('when a format is asked for, then the day comes in it; an unknown format or a day not on the calendar answers 400', async () => {
    const server = await createRailSim().listen(0);
    try {
      const mt940 = await fetch(`${server.url}/v1/statement?date=2026-11-26&format=mt940`);
      const xml = await fetch(`${server.url}/v1/statement?date=2026-11-26&format=xml`);
      const notADay = await fetch(`${server.url}/v1/statement?date=2026-02-30&format=mt940`);

      expect(mt940.status).toBe(200);
      expect(mt940.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(mt940.headers.get('content-disposition')).toBe('attachment; filename="statement-2026-11-26.mt940"');
      expect(acceptStatementFile(await mt940.text(), options)).toMatchObject({ ok: true, lines: [] });
      expect(xml.status).toBe(400);
      expect(await xml.json()).toMatchObject({ message: 'format must be one of csv, mt940, camt053' });
      expect(notADay.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
