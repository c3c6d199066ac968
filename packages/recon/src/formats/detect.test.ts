import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectLayout } from './detect.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/recon/fixtures/${name}`, import.meta.url), 'utf8');

describe('detectLayout', () => {
  it.each([
    ['statement.mt940', 'mt940'],
    ['statement.camt053.001.02.xml', 'camt.053'],
    ['statement.camt053.001.08.xml', 'camt.053'],
    ['hdfc-style.csv', 'bank-csv'],
    ['icici-style.csv', 'bank-csv'],
  ])('when the file is %s, then its content says %s', (name, layout) => {
    expect(detectLayout(fixture(name))).toBe(layout);
  });

  it('when the file starts with the canonical header (BOM, quotes, any case), then it is the canonical CSV', () => {
    expect(detectLayout('\uFEFF"Reference",utr,amount,type,value_date\r\nR1,U1,1.00,DEBIT,2026-11-24\n')).toBe(
      'canonical-csv',
    );
  });

  it('when an MT940 file starts with a byte order mark, then it is still MT940', () => {
    expect(detectLayout(`\uFEFF${fixture('statement.mt940')}`)).toBe('mt940');
  });

  it('when MT940 tags sit inside the text but not at line starts, then it is not MT940', () => {
    expect(detectLayout('Date,Narration\n24/11/26,ref :20: and :60F: quoted\n')).toBe('bank-csv');
  });
});
