import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  postLedgerEntry,
  recordCollection,
  reversePayout,
  settleFailure,
  settleSuccess,
  type PrismaClient,
} from '@payout/db';
import { LEDGER_ENTRY_KINDS, ledgerLegs, newAckNo, walletDelta, type LedgerEntryKind } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { newTransactionId } from '../support/api.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// One posting primitive for every money movement (docs/ledger.md): post_ledger_entry writes both legs by
// the domain's ledger rules and moves the wallet with them, or refuses and changes nothing. Every writer
// of money uses it, and the database's own constraints still hold underneath.

const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'test', actor: 'test' };
const root = fileURLToPath(new URL('../..', import.meta.url));

async function legsOf(where: string, params: unknown[]): Promise<{ account: string; amountPaise: bigint }[]> {
  const { rows } = await pool.query<{ account: string; amount_paise: string }>(
    `SELECT account::text, amount_paise::text FROM ledger_entries WHERE ${where} ORDER BY amount_paise`,
    params,
  );
  return rows.map((r) => ({ account: r.account, amountPaise: BigInt(r.amount_paise) }));
}

/** Runs one money movement and checks it wrote the domain's legs and moved the wallet by its delta. */
async function expectPostedByTheRules(
  merchant: TestMerchant,
  kind: LedgerEntryKind,
  amount: bigint,
  move: () => Promise<unknown>,
  where: () => [string, unknown[]],
): Promise<void> {
  const before = await merchantBooks(pool, merchant.merchant.id);
  await move();
  const after = await merchantBooks(pool, merchant.merchant.id);
  const [w, params] = where();
  expect(await legsOf(`kind = '${kind}' AND ${w}`, params), kind).toEqual([...ledgerLegs(kind, amount)]);
  const delta = walletDelta(kind, amount);
  expect({ available: after.available - before.available, reserved: after.reserved - before.reserved }, kind).toEqual(
    delta,
  );
}

describe('post_ledger_entry, the one posting primitive', () => {
  it('when each of the seven kinds of money movement happens through its ordinary code, then the legs and the wallet move exactly as the domain rules say', async () => {
    const merchant = await makeMerchant(prisma, { balance: '0' });
    const seen = new Set<LedgerEntryKind>();
    const check = async (
      kind: LedgerEntryKind,
      amount: bigint,
      move: () => Promise<unknown>,
      where: () => [string, unknown[]],
    ) => {
      await expectPostedByTheRules(merchant, kind, amount, move, where);
      seen.add(kind);
    };

    await check(
      'WALLET_CREDIT',
      500_000n,
      () =>
        postLedgerEntry(prisma, {
          merchantId: merchant.merchant.id,
          kind: 'WALLET_CREDIT',
          amountPaise: 500_000n,
          reference: 'opening',
        }),
      () => ['reference = $1', ['opening']],
    );
    const collectionAck = newAckNo();
    await check(
      'COLLECTION_CREDIT',
      7_000n,
      () =>
        recordCollection(prisma, {
          merchantId: merchant.merchant.id,
          transactionId: newTransactionId(),
          mode: 'INTENT',
          payerAccount: '',
          amountPaise: 7_000n,
          bankReference: 'PAYIN1',
          ackNo: collectionAck,
          status: 'SUCCESS',
        }),
      () => ['collection_id = (SELECT id FROM collections WHERE ack_no = $1)', [collectionAck]],
    );
    let settled!: Awaited<ReturnType<typeof payoutAtTheRail>>;
    await check(
      'PAYOUT_RESERVE',
      30_000n,
      async () => (settled = await payoutAtTheRail(prisma, merchant, { amountPaise: 30_000n })),
      () => ['payout_id = $1', [settled.id]],
    );
    await check(
      'PAYOUT_SETTLE',
      30_000n,
      () => settleSuccess(prisma, settled.id, 'UTRPOST1', note),
      () => ['payout_id = $1', [settled.id]],
    );
    await check(
      'PAYOUT_REVERSAL',
      30_000n,
      () => reversePayout(prisma, settled.id, { source: 'rail', note }),
      () => ['payout_id = $1', [settled.id]],
    );
    const failed = await payoutAtTheRail(prisma, merchant, { amountPaise: 20_000n });
    await check(
      'PAYOUT_RELEASE',
      20_000n,
      () => settleFailure(prisma, failed.id, 'RAIL_REJECTED', note),
      () => ['payout_id = $1', [failed.id]],
    );
    await check(
      'PAYOUT_LATE_DEBIT',
      20_000n,
      () =>
        postLedgerEntry(prisma, {
          merchantId: merchant.merchant.id,
          kind: 'PAYOUT_LATE_DEBIT',
          amountPaise: 20_000n,
          payoutId: failed.id,
        }),
      () => ['payout_id = $1', [failed.id]],
    );

    expect([...seen].sort()).toEqual([...LEDGER_ENTRY_KINDS].sort());
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when an entry would take more than the wallet holds, then it is refused and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const failed = await payoutAtTheRail(prisma, merchant, { amountPaise: 8_000n });
    await settleFailure(prisma, failed.id, 'RAIL_REJECTED', note);
    await payoutAtTheRail(prisma, merchant, { amountPaise: 5_000n }); // leaves 50.00 available
    const before = await merchantBooks(pool, merchant.merchant.id);

    const outcome = await postLedgerEntry(prisma, {
      merchantId: merchant.merchant.id,
      kind: 'PAYOUT_LATE_DEBIT',
      amountPaise: 8_000n,
      payoutId: failed.id,
    });

    expect(outcome).toBe('insufficient');
    expect(await legsOf(`kind = 'PAYOUT_LATE_DEBIT' AND payout_id = $1`, [failed.id])).toEqual([]);
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when a merchant has no wallet, then nothing can be taken out and no wallet is opened', async () => {
    const merchant = await makeMerchant(prisma);
    const outcome = await postLedgerEntry(prisma, {
      merchantId: merchant.merchant.id,
      kind: 'PAYOUT_LATE_DEBIT',
      amountPaise: 100n,
      payoutId: (await payoutForLateDebit(prisma)).id,
    });
    expect(outcome).toBe('insufficient');
    const { rows } = await pool.query('SELECT 1 FROM wallets WHERE merchant_id = $1', [merchant.merchant.id]);
    expect(rows).toEqual([]);
  });

  it('when the same entry is posted twice, then the second is a duplicate and changes nothing', async () => {
    const merchant = await makeMerchant(prisma);
    const credit = {
      merchantId: merchant.merchant.id,
      kind: 'WALLET_CREDIT' as const,
      amountPaise: 1_000n,
      reference: 'topup-7',
    };
    expect(await postLedgerEntry(prisma, credit)).toBe('posted');
    const after = await merchantBooks(pool, merchant.merchant.id);
    expect(await postLedgerEntry(prisma, credit)).toBe('duplicate');
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(after);
  });

  it('when a second terminal entry is attempted for a settled payout, then the posting fails whole and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 5_000n });
    await settleSuccess(prisma, payout.id, 'UTRHALF1', note);
    await payoutAtTheRail(prisma, merchant, { amountPaise: 5_000n }); // so the reserved balance could pay it
    const before = await merchantBooks(pool, merchant.merchant.id);

    await expect(
      postLedgerEntry(prisma, {
        merchantId: merchant.merchant.id,
        kind: 'PAYOUT_RELEASE',
        amountPaise: 5_000n,
        payoutId: payout.id,
      }),
    ).rejects.toThrow(/ledger_entries_one_terminal_entry_per_payout|half a duplicate/);
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when a zero amount is posted, then the database refuses it', async () => {
    const merchant = await makeMerchant(prisma);
    await expect(
      postLedgerEntry(prisma, {
        merchantId: merchant.merchant.id,
        kind: 'WALLET_CREDIT',
        amountPaise: 0n,
        reference: 'zero',
      }),
    ).rejects.toThrow(/positive amount/);
  });

  it('when the sources are read, then no code but the primitive writes ledger entries or wallet balances', async () => {
    const offenders: string[] = [];
    for (const dir of ['apps', 'packages']) {
      for (const file of await sourceFiles(join(root, dir))) {
        const text = await readFile(file, 'utf8');
        if (/INSERT\s+INTO\s+ledger_entries|UPDATE\s+wallets|INSERT\s+INTO\s+wallets/i.test(text)) {
          offenders.push(relative(root, file));
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('when the sources are read, then TypeScript posts on its own only a wallet credit: every change of state with money is a SQL function', async () => {
    const callers: string[] = [];
    for (const dir of ['apps', 'packages']) {
      for (const file of await sourceFiles(join(root, dir))) {
        if (/postLedgerEntry\(/.test(await readFile(file, 'utf8'))) callers.push(relative(root, file));
      }
    }
    expect(callers.sort()).toEqual([
      'packages/db/src/repositories/ledger-posting.ts',
      'packages/db/src/repositories/wallet-repository.ts',
    ]);
  });

  it('when the database functions are read, then only post_ledger_entry writes ledger legs or wallet balances', async () => {
    const { rows } = await pool.query<{ proname: string }>(
      `SELECT proname FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace
          AND (prosrc ~* 'INSERT\\s+INTO\\s+ledger_entries' OR prosrc ~* 'UPDATE\\s+wallets')`,
    );
    expect(rows.map((r) => r.proname)).toEqual(['post_ledger_entry']);
    const accept = await pool.query<{ src: string }>(
      `SELECT prosrc AS src FROM pg_proc WHERE proname = 'accept_payouts'`,
    );
    expect(accept.rows[0]!.src).toContain("post_ledger_entry(item.merchant_id, 'PAYOUT_RESERVE'");
  });

  it('when SQL writes a reversal leg in the wrong direction, or a REVERSED payout without its reason, then the database refuses', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 5_000n });
    await settleSuccess(prisma, payout.id, 'UTRCHECK1', note);
    await expect(
      pool.query(
        `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id) VALUES ($1, 'PAYOUT_REVERSAL', 'MAIN_WALLET', -5000, $2)`,
        [merchant.merchant.id, payout.id],
      ),
    ).rejects.toThrow(/ledger_entries_leg_direction/);
    await expect(
      pool.query(
        `UPDATE payouts SET state = 'REVERSED', status = 'FAILED', failure_reason = 'RAIL_REJECTED' WHERE id = $1`,
        [payout.id],
      ),
    ).rejects.toThrow(/payouts_reversed_has_its_reason/);
    await expect(
      pool.query(
        `UPDATE payouts SET state = 'REVERSED', status = 'SUCCESS', failure_reason = 'REVERSED_BY_BENEFICIARY_BANK' WHERE id = $1`,
        [payout.id],
      ),
    ).rejects.toThrow(/payouts_status_matches_state/);
    await expect(
      pool.query(
        `UPDATE payouts SET state = 'REVERSED', status = 'FAILED', failure_reason = 'REVERSED_BY_BENEFICIARY_BANK', bank_reference = NULL WHERE id = $1`,
        [payout.id],
      ),
    ).rejects.toThrow(/payouts_success_has_bank_reference/);
  });
});

/** A FAILED payout of a funded merchant, to aim a late debit at. */
async function payoutForLateDebit(db: PrismaClient) {
  const owner = await makeMerchant(db, { balance: '10.00' });
  const payout = await payoutAtTheRail(db, owner, { amountPaise: 100n });
  await settleFailure(db, payout.id, 'RAIL_REJECTED', note);
  return payout;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'generated' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) found.push(path);
  }
  return found;
}
