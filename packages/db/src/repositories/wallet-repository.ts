import type { Paise } from '@payout/domain';
import { sql, sqlRows, type PrismaClientOrTransaction } from '../client.js';
import { postLedgerEntry } from './ledger-posting.js';

export class CreditReferenceConflictError extends Error {
  override readonly name = 'CreditReferenceConflictError';
  constructor(
    readonly reference: string,
    readonly creditedPaise: Paise,
  ) {
    super(`reference ${reference} was already used for a different amount`);
  }
}

export interface WalletCreditResult {
  /** False when the reference had already been credited: nothing changed. */
  credited: boolean;
  availablePaise: Paise;
}

/**
 * Credits a merchant's main wallet through the ledger (FUNDING → MAIN_WALLET), idempotent on the
 * operator's reference: the same reference twice credits once. Posted by the posting primitive, so the
 * ledger legs and the wallet move together or not at all; a concurrent duplicate waits on the wallet's
 * row lock and finds the entry already there.
 */
export async function creditWallet(
  db: PrismaClientOrTransaction,
  merchantId: number,
  amountPaise: Paise,
  reference: string,
): Promise<WalletCreditResult> {
  const outcome = await postLedgerEntry(db, { merchantId, kind: 'WALLET_CREDIT', amountPaise, reference });
  if (outcome === 'posted') {
    const wallet = await db.wallet.findUnique({ where: { merchantId }, select: { availablePaise: true } });
    return { credited: true, availablePaise: wallet?.availablePaise ?? 0n };
  }

  // Already credited under this reference — possibly by a concurrent call that committed while this
  // statement waited, which its snapshot cannot see: read the earlier credit in a statement of its own.
  // The same amount is a harmless repeat; another is a mistake.
  const earlier = await db.ledgerEntry.findFirst({
    where: { merchantId, reference, kind: 'WALLET_CREDIT', account: 'MAIN_WALLET' },
    select: { amountPaise: true },
  });
  const existing = earlier?.amountPaise ?? 0n;
  if (existing !== amountPaise) throw new CreditReferenceConflictError(reference, existing);
  const wallet = await db.wallet.findUnique({ where: { merchantId } });
  return { credited: false, availablePaise: wallet?.availablePaise ?? 0n };
}

/** The amount an earlier credit under `reference` brought, or null when the reference is unused. */
export async function findWalletCredit(
  db: PrismaClientOrTransaction,
  merchantId: number,
  reference: string,
): Promise<Paise | null> {
  const earlier = await db.ledgerEntry.findFirst({
    where: { merchantId, reference, kind: 'WALLET_CREDIT', account: 'MAIN_WALLET' },
    select: { amountPaise: true },
  });
  return earlier?.amountPaise ?? null;
}

export interface WalletBalances {
  availablePaise: Paise;
  reservedPaise: Paise;
}

/** The merchant's wallet balances (the balance lookup's one statement). */
export async function findWallet(db: PrismaClientOrTransaction, merchantId: number): Promise<WalletBalances | null> {
  const [row] = await sqlRows<{ available_paise: bigint; reserved_paise: bigint }>(
    db,
    sql`SELECT available_paise, reserved_paise FROM wallets WHERE merchant_id = ${merchantId}`,
  );
  return row ? { availablePaise: row.available_paise, reservedPaise: row.reserved_paise } : null;
}

export interface LedgerBalances {
  funding: Paise;
  mainWallet: Paise;
  reserved: Paise;
  paidOut: Paise;
}

/** A merchant's four account balances summed from the ledger. */
export async function ledgerBalances(db: PrismaClientOrTransaction, merchantId: number): Promise<LedgerBalances> {
  const groups = await db.ledgerEntry.groupBy({
    by: ['account'],
    where: { merchantId },
    _sum: { amountPaise: true },
  });
  const sum = (account: string) => groups.find((g) => g.account === account)?._sum.amountPaise ?? 0n;
  return {
    funding: sum('FUNDING'),
    mainWallet: sum('MAIN_WALLET'),
    reserved: sum('RESERVED'),
    paidOut: sum('PAID_OUT'),
  };
}
