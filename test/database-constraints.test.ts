import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newAckNo } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { testPool, testPrisma } from './support/database.js';
import { makeMerchant } from './support/factories.js';

// The database itself refuses writes that would create or lose money, whatever the code above it does.
// Each test writes inside a transaction that is rolled back at its end, so the half-made rows it needs
// (a payout without its reservation, say) never reach the books the after-file reconciliation checks.

let connections: pg.Pool;
let prisma: PrismaClient;
let client: pg.PoolClient;
beforeAll(() => {
  connections = testPool();
  prisma = testPrisma();
});
beforeEach(async () => {
  client = await connections.connect();
  await client.query('BEGIN');
});
afterEach(async () => {
  await client.query('ROLLBACK');
  client.release();
});
afterAll(async () => {
  await connections.end();
  await prisma.$disconnect();
});

/**
 * Runs a statement that must be refused, inside a savepoint so the test's transaction survives the
 * refusal. Resolves to the statement's result when the database accepts it.
 */
const pool = {
  async query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []) {
    await client.query('SAVEPOINT statement');
    try {
      const result = await client.query<R>(sql, params);
      await client.query('RELEASE SAVEPOINT statement');
      return result;
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT statement');
      throw error;
    }
  },
};

async function insertPayout(merchantId: number, overrides: Record<string, unknown> = {}): Promise<bigint> {
  const row = {
    merchant_id: merchantId,
    transaction_id: String(Date.now()) + String(Math.floor(Math.random() * 1e6)),
    mode: 'IMPS',
    amount_paise: 1000,
    ack_no: newAckNo(),
    state: 'ACCEPTED',
    status: 'PENDING',
    beneficiary_account: '123456789012',
    beneficiary_ifsc: 'HDFC0001234',
    beneficiary_name: 'Asha',
    ...overrides,
  };
  const columns = Object.keys(row);
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO payouts (${columns.join(', ')}) VALUES (${columns.map((c, i) => `$${i + 1}::${castOf(c)}`).join(', ')}) RETURNING id`,
    Object.values(row),
  );
  return BigInt(rows[0]!.id);
}

function castOf(column: string): string {
  const casts: Record<string, string> = {
    merchant_id: 'int',
    amount_paise: 'bigint',
    mode: 'payout_mode',
    state: 'payout_state',
    status: 'payout_status',
  };
  return casts[column] ?? 'text';
}

describe('database constraints', () => {
  it('when SQL tries to make a wallet negative, then the database refuses', async () => {
    const { merchant } = await makeMerchant(prisma, { balance: '10.00' });
    await expect(
      pool.query('UPDATE wallets SET available_paise = available_paise - 1001 WHERE merchant_id = $1', [merchant.id]),
    ).rejects.toThrow(/wallets_available_non_negative/);
    await expect(
      pool.query('UPDATE wallets SET reserved_paise = -1 WHERE merchant_id = $1', [merchant.id]),
    ).rejects.toThrow(/wallets_reserved_non_negative/);
    const { rows } = await pool.query('SELECT available_paise FROM wallets WHERE merchant_id = $1', [merchant.id]);
    expect(rows[0]!.available_paise).toBe('1000');
  });

  it('when SQL writes a second ledger entry of the same kind for one payout, then the database refuses', async () => {
    const { merchant } = await makeMerchant(prisma);
    const payoutId = await insertPayout(merchant.id);
    const reserve = `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id)
                     VALUES ($1, 'PAYOUT_RESERVE', 'MAIN_WALLET', -1000, $2), ($1, 'PAYOUT_RESERVE', 'RESERVED', 1000, $2)`;
    await pool.query(reserve, [merchant.id, payoutId]);
    await expect(pool.query(reserve, [merchant.id, payoutId])).rejects.toThrow(
      /ledger_entries_payout_id_kind_account_key/,
    );
  });

  it('when SQL both settles and releases one payout, then the database refuses the second', async () => {
    const { merchant } = await makeMerchant(prisma);
    const payoutId = await insertPayout(merchant.id);
    await pool.query(
      `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id)
       VALUES ($1, 'PAYOUT_SETTLE', 'RESERVED', -1000, $2), ($1, 'PAYOUT_SETTLE', 'PAID_OUT', 1000, $2)`,
      [merchant.id, payoutId],
    );
    await expect(
      pool.query(
        `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id)
         VALUES ($1, 'PAYOUT_RELEASE', 'RESERVED', -1000, $2), ($1, 'PAYOUT_RELEASE', 'MAIN_WALLET', 1000, $2)`,
        [merchant.id, payoutId],
      ),
    ).rejects.toThrow(/ledger_entries_one_terminal_entry_per_payout/);
  });

  it('when a ledger leg moves money the wrong way for its kind, then the database refuses', async () => {
    const { merchant } = await makeMerchant(prisma);
    const payoutId = await insertPayout(merchant.id);
    await expect(
      pool.query(
        `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id)
         VALUES ($1, 'PAYOUT_RESERVE', 'PAID_OUT', 1000, $2)`,
        [merchant.id, payoutId],
      ),
    ).rejects.toThrow(/ledger_entries_leg_direction/);
    await expect(
      pool.query(
        `INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, reference)
         VALUES ($1, 'WALLET_CREDIT', 'MAIN_WALLET', -5, 'r')`,
        [merchant.id],
      ),
    ).rejects.toThrow(/ledger_entries_leg_direction/);
  });

  it('when a payout status disagrees with its state, then the database refuses', async () => {
    const { merchant } = await makeMerchant(prisma);
    await expect(insertPayout(merchant.id, { state: 'ACCEPTED', status: 'SUCCESS' })).rejects.toThrow(
      /payouts_status_matches_state/,
    );
    const id = await insertPayout(merchant.id);
    await expect(
      pool.query(`UPDATE payouts SET state = 'SUCCESS', status = 'SUCCESS', settled_at = now() WHERE id = $1`, [id]),
    ).rejects.toThrow(/payouts_success_has_bank_reference/);
  });

  it('when a payout amount is zero or negative, or its TransactionID is not digits, then the database refuses', async () => {
    const { merchant } = await makeMerchant(prisma);
    await expect(insertPayout(merchant.id, { amount_paise: 0 })).rejects.toThrow(/payouts_amount_positive/);
    await expect(insertPayout(merchant.id, { transaction_id: '12a' })).rejects.toThrow(/payouts_transaction_id_digits/);
  });

  it('when the same TransactionID is used twice by one merchant, then the database refuses; another merchant may use it', async () => {
    const a = await makeMerchant(prisma);
    const b = await makeMerchant(prisma);
    await insertPayout(a.merchant.id, { transaction_id: '4242' });
    await expect(
      insertPayout(a.merchant.id, { transaction_id: '4242', mode: 'UPI', beneficiary_ifsc: null }),
    ).rejects.toThrow(/payouts_merchant_id_transaction_id_key/);
    await expect(insertPayout(b.merchant.id, { transaction_id: '4242' })).resolves.toBeTypeOf('bigint');
  });
});
