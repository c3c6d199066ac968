import { describe, expect, it } from 'vitest';
import { acceptStatementFile, parseStatement } from '@payout/recon';
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
