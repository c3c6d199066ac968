import type { Member, PayoutMode } from './bad-input-generators.js';

// The contract's request rules (docs/api.md, "Request members" and "Order of checks"), written out
// independently of the application, for one direction only: whatever the API accepts must satisfy them.
// Where the contract leaves room (leading zeros in a numeric string, how characters are counted), the
// rule here is the lenient reading, so a finding is never a matter of taste.

export interface AcceptableInstruction {
  transactionId: string;
  amountPaise: bigint;
  /** Account number (IMPS) or UPI address (UPI) as the result must echo it. */
  account: string;
  ifsc: string | null;
  /** Compared on a replay with the account, IFSC and amount (docs/api.md). */
  name: string;
}

const CEILING: Record<PayoutMode, bigint> = { IMPS: 50_000_000n, UPI: 10_000_000n };
// eslint-disable-next-line no-control-regex -- control characters are what the rule is about
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- control characters are what the rule is about
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/;

type Literal = { type: 'string'; value: string } | { type: 'number'; text: string } | { type: 'other' };

function literal(text: string): Literal {
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return { type: 'number', text };
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? { type: 'string', value } : { type: 'other' };
  } catch {
    return { type: 'other' };
  }
}

/** Text of a member given as a string, or as a number when numbers are allowed. */
function textOf(l: Literal | undefined, numbersToo: boolean): string | undefined {
  if (l?.type === 'string') return l.value;
  if (numbersToo && l?.type === 'number') return l.text;
  return undefined;
}

/** Absent, null and "" all mean "not given" for an optional member. */
const blank = (l: Literal | undefined) => l === undefined || (l.type === 'string' && l.value === '');

function optionalOk(l: Literal | undefined, raw: string | undefined, rule: (l: Literal) => boolean): boolean {
  if (raw === 'null' || blank(l)) return true;
  return l !== undefined && rule(l);
}

function freeText(l: Literal, min: number, max: number, control: RegExp): boolean {
  if (l.type !== 'string') return false;
  const value = l.value.trim();
  const length = Array.from(value).length;
  return length >= min && length <= max && value.isWellFormed() && !control.test(value);
}

/**
 * The payout a body describes, if the contract allows it; undefined when the contract says it must be
 * refused. `members` are the body's members as sent, repeats included.
 */
export function acceptableInstruction(mode: PayoutMode, members: readonly Member[]): AcceptableInstruction | undefined {
  const byKey = new Map<string, string>();
  for (const [key, value] of members) {
    const earlier = byKey.get(key);
    // A member given twice with different values makes the body invalid (docs/api.md).
    if (earlier !== undefined && earlier !== value) return undefined;
    byKey.set(key, value);
  }
  const raw = (key: string) => byKey.get(key);
  const lit = (key: string) => (byKey.has(key) ? literal(byKey.get(key)!) : undefined);

  const transactionId = textOf(lit('TransactionID'), true);
  if (!transactionId || !/^[0-9]{1,30}$/.test(transactionId)) return undefined;

  const amountText = textOf(lit('Amount'), true);
  const amount = amountText === undefined ? undefined : /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(amountText);
  if (!amount) return undefined;
  const amountPaise = BigInt(`${amount[1]}${(amount[2] ?? '').padEnd(2, '0')}`);
  if (amountPaise < 100n || amountPaise > CEILING[mode]) return undefined;

  const nameLiteral = lit('Name');
  if (nameLiteral?.type !== 'string' || !freeText(nameLiteral, 1, 100, CONTROL)) return undefined;
  const name = nameLiteral.value.trim();
  const mobileOk = optionalOk(lit('Mobile'), raw('Mobile'), (l) => /^[6-9][0-9]{9}$/.test(textOf(l, true) ?? ''));
  const emailOk = optionalOk(lit('Email'), raw('Email'), (l) =>
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test((textOf(l, false) ?? '').trim()),
  );
  const descriptionOk = optionalOk(lit('Description'), raw('Description'), (l) =>
    freeText(l, 0, 255, CONTROL_BUT_LINE_BREAKS),
  );
  if (!mobileOk || !emailOk || !descriptionOk) return undefined;

  if (mode === 'UPI') {
    const upi = textOf(lit('Upi'), false)?.trim();
    if (!upi || !/^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/.test(upi)) return undefined;
    return { transactionId, amountPaise, account: upi, ifsc: null, name };
  }
  const account = textOf(lit('Account'), true);
  if (!account || !/^[0-9]{9,18}$/.test(account)) return undefined;
  const ifsc = textOf(lit('Ifsc'), false)?.trim().toUpperCase();
  if (!ifsc || !/^[A-Z]{4}0[A-Z0-9]{6}$/.test(ifsc)) return undefined;
  const bankNameOk = optionalOk(lit('BankName'), raw('BankName'), (l) => freeText(l, 1, 100, CONTROL));
  if (!bankNameOk) return undefined;
  return { transactionId, amountPaise, account, ifsc, name };
}

/** Paise as the contract writes them: "101.00". */
export function rupeesText(paise: bigint): string {
  return `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
}
