import type { Paise } from '@payout/domain';
import { z } from 'zod';
import {
  classifyEntry,
  isCalendarDate,
  keysInText,
  LineSplitter,
  parseAmount,
  readWhole,
  signedAmount,
  type BankEntry,
  type EntrySink,
  type ReadResult,
  type StatementHead,
  type StatementStreamReader,
} from './bank-statement.js';
import { splitFields } from './csv-fields.js';

/**
 * A bank's own CSV export, read through a profile: a small JSON file per bank that says which column is
 * which, how dates are written, how debits are told from credits and where the keys sit in the narration.
 * An operator adds a bank by writing one (docs/reconciliation-formats.md); no code changes.
 */

/** A regular expression written as text in the profile; it must compile. */
const Pattern = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a regular expression' },
);
/** A pattern whose first group captures the value. */
const CapturingPattern = Pattern.refine((source) => new RegExp(`${source}|`).exec('')!.length > 1, {
  message: 'the pattern needs a capturing group ( … ) around the value',
});

const Column = z.string().min(1);

const AmountConvention = z.discriminatedUnion('style', [
  /** A withdrawal column and a deposit column; one of them is filled on each row. */
  z.object({ style: z.literal('debit-credit-columns'), debit: Column, credit: Column }),
  /** One signed amount column. */
  z.object({ style: z.literal('signed'), column: Column, debitsAre: z.enum(['negative', 'positive']) }),
  /** One amount column and an indicator column ("DR"/"CR"). */
  z.object({
    style: z.literal('indicator'),
    column: Column,
    indicatorColumn: Column,
    debit: z.array(z.string().min(1)).min(1),
    credit: z.array(z.string().min(1)).min(1),
  }),
]);

export const BankCsvProfile = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9-]{1,64}$/, 'lower-case letters, digits and hyphens'),
    description: z.string().optional(),
    delimiter: z.enum([',', ';', '\t', '|']).default(','),
    /** Tokens DD, MM, MMM (Jan…Dec), YY, YYYY and literal separators: "DD/MM/YY", "DD-MMM-YYYY". */
    dateFormat: z
      .string()
      .regex(/^(DD|MMM|MM|YYYY|YY|[^A-Za-z0-9])+$/, 'tokens DD, MM, MMM, YY, YYYY and separators')
      .refine((format) => ['DD', 'MMM?', 'YY(YY)?'].every((t) => format.match(new RegExp(t, 'g'))?.length === 1), {
        message: 'the day, the month and the year each once',
      }),
    /** The thousands separator inside amounts ("1,01,000.00"); the decimal mark is a point. */
    thousandsSeparator: z.enum([',', ' ', '']).default(','),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default('INR'),
    columns: z.strictObject({
      valueDate: Column,
      narration: Column,
      bankReference: Column.optional(),
      /** The running balance after each row, when the export prints one. */
      balance: Column.optional(),
      /** The bank's transaction code of each row, when the export has one: only a code makes a return. */
      code: Column.optional(),
    }),
    amount: AmountConvention,
    /** Found in the lines above the header: the account number, in the first group. */
    accountPattern: CapturingPattern.optional(),
    /** Rows to skip (separator rows of asterisks, page headers). */
    ignoreRows: Pattern.optional(),
    /** A row starting with one of these ends the data (a summary block at the foot of the export). */
    endOfData: z.array(z.string().min(1)).default([]),
    narration: z
      .strictObject({
        /** Where the UTR sits, in the first group; else the UTR shapes are looked for anywhere. */
        utrPattern: CapturingPattern.optional(),
        /** Where our reference sits, in the first group; else the Ack_no shape is looked for anywhere. */
        referencePattern: CapturingPattern.optional(),
        /**
         * Narration that calls money a return; else the common words (RETURN, REV, …). Only a claim: such a row
         * is a break for a person unless its code column says it is a return (`codes.return`).
         */
        returnPattern: Pattern.optional(),
        /** Narration of charges and interest; else the common words (CHG, CHARGES, GST, …). */
        chargePattern: Pattern.optional(),
      })
      .default({}),
    /** What the code column's values mean (docs/reconciliation-formats.md): the bank's return and charge codes. */
    codes: z
      .strictObject({
        return: z.array(z.string().min(1)).default([]),
        charge: z.array(z.string().min(1)).default([]),
      })
      .optional(),
  })
  .refine((profile) => profile.codes === undefined || profile.columns.code !== undefined, {
    message: 'codes need the column that holds them: columns.code',
    path: ['codes'],
  });
export type BankCsvProfile = z.infer<typeof BankCsvProfile>;

/** A profile from its JSON text, or why it is not one. */
export function parseBankProfile(json: string): { ok: true; profile: BankCsvProfile } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, reason: `the profile is not JSON: ${error instanceof Error ? error.message : 'unknown'}` };
  }
  const parsed = BankCsvProfile.safeParse(value);
  if (!parsed.success) {
    const problem = parsed.error.issues[0]!;
    return { ok: false, reason: `the profile is not valid: ${problem.path.join('.') || '(top)'}: ${problem.message}` };
  }
  return { ok: true, profile: parsed.data };
}

export function readBankCsv(text: string, profile: BankCsvProfile): ReadResult {
  return readWhole(text, (sink) => bankCsvReader(profile, sink));
}

/**
 * A bank's CSV export as a stream, row by row (docs/reconciliation.md, "Memory"): the preamble searched for
 * the account until the header line, then each row an entry handed to the sink; its balances are the first
 * row's before it and the last row's after it.
 */
export function bankCsvReader(profile: BankCsvProfile, sink: EntrySink): StatementStreamReader {
  const wanted = requiredColumns(profile);
  const accountPattern = profile.accountPattern === undefined ? undefined : new RegExp(profile.accountPattern);
  const ignore = profile.ignoreRows === undefined ? undefined : new RegExp(profile.ignoreRows);
  const readDate = dateReader(profile.dateFormat);
  let account: string | null = null;
  let columns: string[] | undefined;
  let lineNumber = 0;
  let done = false;
  let failure: string | undefined;
  let first: BankEntry | undefined;
  let last: BankEntry | undefined;

  const splitter = new LineSplitter((row) => {
    lineNumber++;
    if (done) return;
    if (columns === undefined) {
      const header = headerColumns(row, profile.delimiter, wanted);
      if (header) columns = header;
      else if (account === null && accountPattern) account = accountPattern.exec(row)?.[1] ?? null;
      return;
    }
    if (profile.endOfData.some((prefix) => row.trimStart().startsWith(prefix))) {
      done = true;
      return;
    }
    if (row.trim() === '' || ignore?.test(row)) return;
    const split = splitFields(row, profile.delimiter);
    if (!split.ok) {
      stop(`line ${lineNumber}: ${split.message}`);
      return;
    }
    const at = columns;
    const field = (name: string) => split.fields[at.indexOf(name)]?.trim() ?? '';
    const entry = readRow(field, profile, readDate, lineNumber);
    if (!entry.ok) {
      stop(`line ${lineNumber}: ${entry.reason}`);
      return;
    }
    first ??= entry.entry;
    last = entry.entry;
    sink(0, entry.entry);
  });
  const stop = (reason: string) => {
    failure = reason;
    done = true;
  };

  return {
    write: (text) => splitter.write(text),
    end: () => {
      splitter.end();
      if (columns === undefined) {
        return { ok: false, reason: `profile ${profile.name}: no header line with the columns ${wanted.join(', ')}` };
      }
      if (failure !== undefined) return { ok: false, reason: failure };
      const balances =
        first?.balanceAfterPaise !== undefined && last?.balanceAfterPaise !== undefined
          ? { opening: first.balanceAfterPaise - signedAmount(first), closing: last.balanceAfterPaise }
          : null;
      return {
        ok: true,
        statements: [
          {
            format: 'bank-csv',
            id: null,
            account,
            sequence: null,
            statementDate: null,
            openingBalancePaise: balances?.opening ?? null,
            closingBalancePaise: balances?.closing ?? null,
            currency: profile.currency,
          } satisfies StatementHead,
        ],
      };
    },
  };
}

function readRow(
  field: (name: string) => string,
  profile: BankCsvProfile,
  readDate: (text: string) => string | undefined,
  lineNumber: number,
): { ok: true; entry: BankEntry } | { ok: false; reason: string } {
  const valueDate = readDate(field(profile.columns.valueDate));
  if (valueDate === undefined) {
    return { ok: false, reason: `date "${field(profile.columns.valueDate)}" is not ${profile.dateFormat}` };
  }
  const movement = movementOf(field, profile);
  if (!movement.ok) return movement;

  const narration = field(profile.columns.narration);
  const bankReference = profile.columns.bankReference === undefined ? '' : field(profile.columns.bankReference);
  // The bank's reference column may hold the UTR; our reference is looked for in the narration only, since
  // a bank's own alphanumeric reference in that column has the same shape as an Ack_no.
  const rules = profile.narration;
  const utr =
    rules.utrPattern === undefined
      ? keysInText([narration, bankReference]).utr
      : new RegExp(rules.utrPattern).exec(narration)?.[1];
  const reference =
    rules.referencePattern === undefined
      ? keysInText([narration]).reference
      : new RegExp(rules.referencePattern).exec(narration)?.[1];
  const code = profile.columns.code === undefined ? '' : field(profile.columns.code);
  const upper = (values: readonly string[] = []) => new Set(values.map((v) => v.trim().toUpperCase()));
  const kind = classifyEntry({
    direction: movement.direction,
    reversal: false,
    codes: code === '' ? [] : [code],
    returnCodes: upper(profile.codes?.return),
    chargeCodes: upper(profile.codes?.charge),
    narration,
    reference,
    ...(rules.chargePattern !== undefined && { chargeNarration: new RegExp(rules.chargePattern, 'i') }),
    ...(rules.returnPattern !== undefined && { returnNarration: new RegExp(rules.returnPattern, 'i') }),
  });

  let balanceAfterPaise: Paise | undefined;
  if (profile.columns.balance !== undefined) {
    balanceAfterPaise = runningBalance(field(profile.columns.balance), profile);
    if (balanceAfterPaise === undefined) {
      return { ok: false, reason: `balance "${field(profile.columns.balance)}" is not an amount` };
    }
  }
  return {
    ok: true,
    entry: {
      lineNumber,
      valueDate,
      type: kind.type,
      amountPaise: movement.amountPaise,
      ...(utr !== undefined && { utr }),
      ...(reference !== undefined && { reference }),
      ...(bankReference !== '' && { bankReference }),
      narration,
      class: kind.class,
      ...(balanceAfterPaise !== undefined && { balanceAfterPaise }),
    },
  };
}

type Movement = { ok: true; direction: 'DEBIT' | 'CREDIT'; amountPaise: Paise } | { ok: false; reason: string };

/** Which way the money moved and how much, by the profile's sign convention. */
function movementOf(field: (name: string) => string, profile: BankCsvProfile): Movement {
  const convention = profile.amount;
  const money = (name: string) => amountIn(field(name), profile);
  if (convention.style === 'debit-credit-columns') {
    const debit = money(convention.debit);
    const credit = money(convention.credit);
    if (debit === undefined || credit === undefined) {
      return { ok: false, reason: `"${field(convention.debit)}" / "${field(convention.credit)}" is not an amount` };
    }
    if ((debit === 0n) === (credit === 0n)) {
      return { ok: false, reason: `exactly one of "${convention.debit}" and "${convention.credit}" must be filled` };
    }
    return debit > 0n
      ? { ok: true, direction: 'DEBIT', amountPaise: debit }
      : { ok: true, direction: 'CREDIT', amountPaise: credit };
  }
  if (convention.style === 'signed') {
    const text = field(convention.column);
    const negative = text.startsWith('-');
    const magnitude = amountIn(negative || text.startsWith('+') ? text.slice(1) : text, profile);
    if (magnitude === undefined || magnitude === 0n) return { ok: false, reason: `amount "${text}" is not an amount` };
    const debit = negative === (convention.debitsAre === 'negative');
    return { ok: true, direction: debit ? 'DEBIT' : 'CREDIT', amountPaise: magnitude };
  }
  const amount = money(convention.column);
  if (amount === undefined || amount === 0n) {
    return { ok: false, reason: `amount "${field(convention.column)}" is not an amount` };
  }
  const indicator = field(convention.indicatorColumn).toUpperCase();
  const is = (values: string[]) => values.some((v) => v.toUpperCase() === indicator);
  if (is(convention.debit)) return { ok: true, direction: 'DEBIT', amountPaise: amount };
  if (is(convention.credit)) return { ok: true, direction: 'CREDIT', amountPaise: amount };
  return {
    ok: false,
    reason: `"${field(convention.indicatorColumn)}" is neither ${[...convention.debit, ...convention.credit].join(' nor ')}`,
  };
}

/** An unsigned amount as the export writes it; an empty cell is zero (the unused side of a row). */
function amountIn(text: string, profile: BankCsvProfile): Paise | undefined {
  const plain = profile.thousandsSeparator === '' ? text : text.split(profile.thousandsSeparator).join('');
  return plain === '' ? 0n : parseAmount(plain, '.');
}

/** A running balance: signed, or followed by Cr/Dr as some exports print it. */
function runningBalance(text: string, profile: BankCsvProfile): Paise | undefined {
  const match = /^(-?)\s*(.*?)\s*(Cr|Dr|CR|DR)?$/.exec(text);
  if (!match || match[2] === '') return undefined;
  const magnitude = amountIn(match[2]!, profile);
  if (magnitude === undefined) return undefined;
  return match[1] === '-' || match[3]?.toUpperCase() === 'DR' ? -magnitude : magnitude;
}

function requiredColumns(profile: BankCsvProfile): string[] {
  const { columns, amount } = profile;
  const money =
    amount.style === 'debit-credit-columns'
      ? [amount.debit, amount.credit]
      : amount.style === 'signed'
        ? [amount.column]
        : [amount.column, amount.indicatorColumn];
  return [columns.valueDate, columns.narration, ...money, columns.bankReference, columns.balance, columns.code].filter(
    (c): c is string => c !== undefined,
  );
}

/** The columns of the header line: the first line holding every column the profile names (above it, the preamble). */
function headerColumns(row: string, delimiter: string, wanted: readonly string[]): string[] | undefined {
  const split = splitFields(row, delimiter);
  if (!split.ok) return undefined;
  const columns = split.fields.map((f) => f.trim());
  return wanted.every((name) => columns.includes(name)) ? columns : undefined;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** A reader of dates in the profile's format, answering YYYY-MM-DD for a real date. */
function dateReader(format: string): (text: string) => string | undefined {
  const parts = format.match(/YYYY|YY|MMM|MM|DD|[^A-Za-z0-9]/g)!;
  const source = parts
    .map((part) => {
      if (part === 'YYYY') return '(?<year>[0-9]{4})';
      if (part === 'YY') return '(?<year>[0-9]{2})';
      if (part === 'MMM') return '(?<monthName>[A-Za-z]{3})';
      if (part === 'MM') return '(?<month>[0-9]{2})';
      if (part === 'DD') return '(?<day>[0-9]{2})';
      return part.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return (text) => {
    const groups = pattern.exec(text)?.groups;
    if (!groups) return undefined;
    const year = groups.year!.length === 2 ? `20${groups.year}` : groups.year!;
    const monthNumber = groups.monthName ? MONTHS.indexOf(groups.monthName.toUpperCase()) + 1 : Number(groups.month);
    const date = `${year}-${String(monthNumber).padStart(2, '0')}-${groups.day}`;
    return isCalendarDate(date) ? date : undefined;
  };
}
