import { describe, expect, it } from 'vitest';
import { classifyEntry, keysInText, narrationTexts, parseAmount } from './bank-statement.js';

describe('keysInText', () => {
  it.each([
    ['IMPS/P2A/912807471309/RAVI KUMAR/01MCC5RM007QX2KD9F4T', '01MCC5RM007QX2KD9F4T', '912807471309'],
    ['NEFT DR-HDFCN62632800123-PRIYA-ICIC0000456-01MCC5RM01B8N3WZ6H2C', '01MCC5RM01B8N3WZ6H2C', 'HDFCN62632800123'],
    ['RTGS-HDFCR52026112400000123-ACME 01MCC5RM02Y5P7GJ1R8D', '01MCC5RM02Y5P7GJ1R8D', 'HDFCR52026112400000123'],
    ['IMPS-912807471309-SBIN-XXXXXXXX1234-SALARYPAYMENTS', undefined, '912807471309'],
    ['GST ON CHARGES 24-11-2026', undefined, undefined],
  ])('when the narration is %j, then the reference is %s and the UTR %s', (text, reference, utr) => {
    expect(keysInText([text])).toEqual({
      ...(reference !== undefined && { reference }),
      ...(utr !== undefined && { utr }),
    });
  });

  it('when the texts are searched in order, then the first text that has a key wins', () => {
    expect(keysInText(['01MCC5RM007QX2KD9F4T', 'IMPS 912807471309 01MCC5RM01B8N3WZ6H2C'])).toEqual({
      reference: '01MCC5RM007QX2KD9F4T',
      utr: '912807471309',
    });
  });

  it('when a key is cut at a fixed-width line end, then the joined lines find it; when two words meet at a line end, then the spaced lines do', () => {
    const cut = narrationTexts(['IMPS 9128074', '71309 01MCC5RM00', '7QX2KD9F4T']);
    expect(cut.narration).toBe('IMPS 912807471309 01MCC5RM007QX2KD9F4T');
    expect(keysInText(cut.searchIn)).toEqual({ reference: '01MCC5RM007QX2KD9F4T', utr: '912807471309' });
    const glued = narrationTexts(['IMPS/912807471309', '01MCC5RM007QX2KD9F4T/ACME']);
    expect(keysInText(glued.searchIn)).toEqual({ reference: '01MCC5RM007QX2KD9F4T', utr: '912807471309' });
  });
});

describe('classifyEntry', () => {
  const base = { reversal: false, codes: [], narration: '', reference: undefined };
  it.each([
    [{ ...base, direction: 'DEBIT', reference: 'R1' }, 'DEBIT', 'payout'],
    [{ ...base, direction: 'DEBIT' }, 'DEBIT', 'unknown'],
    [{ ...base, direction: 'DEBIT', codes: ['NCHG'], reference: 'R1' }, 'DEBIT', 'bank_charge'],
    [{ ...base, direction: 'DEBIT', narration: 'GST ON CHARGES' }, 'DEBIT', 'bank_charge'],
    [{ ...base, direction: 'CREDIT', codes: ['NINT'] }, 'CREDIT', 'bank_charge'],
    [{ ...base, direction: 'CREDIT', narration: 'REVERSAL OF IMPS CHG' }, 'CREDIT', 'bank_charge'],
    [{ ...base, direction: 'CREDIT', narration: 'INT.PD 01-10-2026 TO 31-10-2026' }, 'CREDIT', 'bank_charge'],
    [{ ...base, direction: 'CREDIT', codes: ['NRTI'] }, 'RETURN', 'return'],
    [{ ...base, direction: 'CREDIT', codes: ['SRTN'] }, 'RETURN', 'return'],
    [{ ...base, direction: 'CREDIT', codes: ['RRTN'] }, 'RETURN', 'return'],
    [{ ...base, direction: 'CREDIT', codes: ['rtrn'] }, 'RETURN', 'return'],
    [{ ...base, direction: 'CREDIT', reversal: true, codes: ['NRTI'] }, 'RETURN', 'return'],
    // Narration is written by whoever sends the money, and a reversal mark alone names no return: a person decides.
    [{ ...base, direction: 'CREDIT', reversal: true }, 'CREDIT', 'uncoded_return'],
    [{ ...base, direction: 'CREDIT', narration: 'REV-IMPS-912807471309' }, 'CREDIT', 'uncoded_return'],
    [
      { ...base, direction: 'CREDIT', codes: ['NTRF'], narration: 'REV 01MCC5RM007QX2KD9F4T' },
      'CREDIT',
      'uncoded_return',
    ],
    [{ ...base, direction: 'CREDIT', codes: ['RET'], returnCodes: new Set(['RET']) }, 'RETURN', 'return'],
    [{ ...base, direction: 'CREDIT', codes: ['SVC'], chargeCodes: new Set(['SVC']) }, 'CREDIT', 'bank_charge'],
    [{ ...base, direction: 'CREDIT', narration: 'NEFT CR ACME' }, 'CREDIT', 'unknown'],
    [{ ...base, direction: 'CREDIT', narration: 'SCHOOL FEE REFUND' }, 'CREDIT', 'unknown'],
    [{ ...base, direction: 'CREDIT', narration: 'X', returnNarration: /^X$/ }, 'CREDIT', 'uncoded_return'],
    [{ ...base, direction: 'DEBIT', narration: 'SERVICE FEE', chargeNarration: /FEE/ }, 'DEBIT', 'bank_charge'],
  ] as const)('when %o, then it is a %s of class %s', (facts, type, kind) => {
    expect(classifyEntry(facts)).toEqual({ type, class: kind });
  });
});

describe('parseAmount', () => {
  it.each([
    ['101,00', ',', 10100n],
    ['101,', ',', 10100n],
    ['101,5', ',', 10150n],
    ['0,01', ',', 1n],
    ['101.00000', '.', 10100n],
    ['999999999999999.99', '.', 99999999999999999n],
  ] as const)('when %j with mark %j, then %s paise', (text, mark, paise) => {
    expect(parseAmount(text, mark)).toBe(paise);
  });

  it.each([
    ['101.001', '.'],
    ['101.00', ','],
    ['-1.00', '.'],
    ['', '.'],
    ['1e5', '.'],
    ['1 000.00', '.'],
  ] as const)('when %j with mark %j, then it is not an amount', (text, mark) => {
    expect(parseAmount(text, mark)).toBeUndefined();
  });
});
