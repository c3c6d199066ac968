import { describe, expect, it } from 'vitest';
import { renderMt940, type RenderableStatement } from './formats/render-mt940.js';
import { statementFilesOfDays } from './statement-days.js';
import { acceptStatementFile } from './statement-file.js';
import { acceptStatementFiles } from './statement-files.js';

// Several days as one run (docs/reconciliation.md, "Several days in one run").

/** One day's MT940 statement of one payout debit of ours, numbered `sequence`. */
function day(date: string, sequence: number, account = '50200012345678'): { name: string; text: string } {
  const statement: RenderableStatement = {
    id: `STMT${sequence}`,
    account,
    sequence,
    statementDate: date,
    openingBalancePaise: 1_000_000n,
    closingBalancePaise: 990_000n,
    currency: 'INR',
    entries: [
      {
        valueDate: date,
        type: 'DEBIT',
        amountPaise: 10_000n,
        reference: `01MCC5RM0${sequence}QX2KD9F4`,
        bankReference: `HDFC${sequence}`,
        narration: `IMPS/91280747${sequence}0/01MCC5RM0${sequence}QX2KD9F4`,
        class: 'payout',
      },
    ],
  };
  return { name: `${date}.mt940`, text: renderMt940(statement) };
}

describe('acceptStatementFiles', () => {
  it('when two consecutive days are read as one run, then every line names its file and the dates are both days', () => {
    const run = acceptStatementFiles([day('2026-11-23', 123), day('2026-11-24', 124)], { lastSequence: 122 });

    expect(run.ok).toBe(true);
    if (!run.ok) return;
    expect(run.lines.map((l) => [l.file, l.lineNumber, l.reference])).toEqual([
      [1, 5, '01MCC5RM0123QX2KD9F4'],
      [2, 5, '01MCC5RM0124QX2KD9F4'],
    ]);
    expect(run.valueDates).toEqual(['2026-11-23', '2026-11-24']);
    expect(run.files.map((f) => f.name)).toEqual(['2026-11-23.mt940', '2026-11-24.mt940']);
    expect(run.notes.every((note) => note.startsWith('2026-11-2'))).toBe(true);
  });

  it('when one file is read, then it is exactly acceptStatementFile: its lines name no file', () => {
    const one = day('2026-11-23', 123);
    const run = acceptStatementFiles([one], { lastSequence: 122 });

    expect(run).toEqual({ ...acceptStatementFile(one.text, { lastSequence: 122 }), files: [expect.anything()] });
    expect(run.ok && run.lines[0]!.file).toBeUndefined();
  });

  it('when the statement numbers skip one between two files, then the run is refused naming the file and the missing number', () => {
    expect(acceptStatementFiles([day('2026-11-23', 123), day('2026-11-25', 125)])).toEqual({
      ok: false,
      reason: '2026-11-25.mt940: missing statement 124',
    });
  });

  it('when the files are for two accounts, then the run is refused', () => {
    const run = acceptStatementFiles([day('2026-11-23', 123), day('2026-11-24', 124, '50200099999999')]);

    expect(run).toEqual({
      ok: false,
      reason:
        '2026-11-24.mt940 is for account 50200099999999, but 2026-11-23.mt940 is for account 50200012345678: one run reads one account',
    });
  });
});

describe('statementFilesOfDays', () => {
  const files = [day('2026-11-26', 126), day('2026-11-24', 124), day('2026-11-23', 123)];

  it('when every day of the range has a file, then those files come in date order and the others are left out', () => {
    const chosen = statementFilesOfDays(files, { from: '2026-11-23', to: '2026-11-24' });

    expect(chosen.ok && chosen.files.map((f) => f.name)).toEqual(['2026-11-23.mt940', '2026-11-24.mt940']);
  });

  it('when a day of the range has no file, then the range is refused naming the day', () => {
    expect(statementFilesOfDays(files, { from: '2026-11-24', to: '2026-11-26' })).toEqual({
      ok: false,
      reason: 'no statement for 2026-11-25, between 2026-11-24 and 2026-11-26',
    });
  });

  it('when a file of the folder cannot be read, then the range is refused naming it', () => {
    const chosen = statementFilesOfDays([...files, { name: 'notes.txt', text: 'not a statement' }], {
      from: '2026-11-23',
      to: '2026-11-23',
    });

    expect(chosen).toMatchObject({ ok: false, reason: expect.stringMatching(/^notes\.txt: /) });
  });
});
