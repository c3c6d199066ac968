import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { formatStatement, renderMt940 } from '@payout/recon';
import { useApi } from '../support/api.js';
import { cliAs, statementPeople } from '../support/approvals.js';
import { testPool } from '../support/database.js';
import { istToday, statementFile } from './statement-support.js';

// `recon statement --apply` against an admin listener running in production (docs/reconciliation.md,
// "Statement reconciliation"): only a bank's statement, held to the settlement account, is applied. The
// canonical CSV, which anyone can type, is refused, and so is every file while no settlement account is set.

const production = (settings: Record<string, string>) => ({
  NODE_ENV: 'production',
  ADMIN_TOKEN: randomBytes(24).toString('hex'),
  PAYIN_CALLBACK_SECRET: randomBytes(24).toString('hex'),
  // Production refuses the development key that seals approvers' second factors.
  SECOND_FACTOR_KEY: randomBytes(32).toString('hex'),
  // The tests' environment lets webhooks reach loopback addresses; production refuses that.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false',
  ...settings,
});
const SETTLEMENT_ACCOUNT = '50200012345678';
const withAccount = useApi(production({ STATEMENT_SETTLEMENT_ACCOUNT: SETTLEMENT_ACCOUNT }));
const withoutAccount = useApi(production({ STATEMENT_SETTLEMENT_ACCOUNT: '' }));
const pool = testPool();
afterAll(() => pool.end());

/** What applying could have stored: runs and requests. */
async function stored() {
  const { rows } = await pool.query<{ runs: number; requests: number }>(
    `SELECT (SELECT count(*)::int FROM statement_runs) AS runs, (SELECT count(*)::int FROM approval_requests) AS requests`,
  );
  return rows[0]!;
}

const canonicalCsv = () =>
  formatStatement([
    { reference: 'ZZTYPEDBYHAND1', utr: 'UTRHAND1', amountPaise: 10100n, type: 'RETURN', valueDate: istToday() },
  ]);

const bankStatement = () =>
  renderMt940({
    id: 'STMT2611270001',
    account: `HDFC0000060/${SETTLEMENT_ACCOUNT}`,
    sequence: 1,
    statementDate: istToday(),
    currency: 'INR',
    openingBalancePaise: 100_000_000n,
    closingBalancePaise: 100_000_000n,
    entries: [],
  });

describe('recon statement --apply in production', () => {
  it('when the file is the canonical CSV, then it is refused (exit 2) saying why, and nothing is stored', async () => {
    const { maker } = await statementPeople();
    const path = await statementFile(canonicalCsv());
    const before = await stored();

    const result = await cliAs(withAccount.current.adminUrl, maker, 'recon', 'statement', '--file', path, '--apply');

    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "has no account, no balances, no statement number: in production only a bank's statement with its account, balances and number is applied",
    );
    expect(await stored()).toEqual(before);
  });

  it('when STATEMENT_SETTLEMENT_ACCOUNT is unset, then even a bank’s statement is refused (exit 1) saying so, and nothing is stored', async () => {
    const { maker } = await statementPeople();
    const path = await statementFile(bankStatement(), 'statement.sta');
    const before = await stored();

    const result = await cliAs(withoutAccount.current.adminUrl, maker, 'recon', 'statement', '--file', path, '--apply');

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('STATEMENT_SETTLEMENT_ACCOUNT is not set');
    expect(await stored()).toEqual(before);
  });

  it('when a bank’s statement is for the settlement account, then it is applied', async () => {
    const { maker } = await statementPeople();
    const path = await statementFile(bankStatement(), 'statement.sta');
    const before = await stored();

    const result = await cliAs(
      withAccount.current.adminUrl,
      maker,
      'recon',
      'statement',
      '--file',
      path,
      '--apply',
      '--json',
    );

    expect(JSON.parse(result.stdout)).toMatchObject({ statements: [{ format: 'mt940', sequence: 1 }] });
    expect((await stored()).runs).toBe(before.runs + 1);
  });
});
