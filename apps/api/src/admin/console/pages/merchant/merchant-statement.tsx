import type { Response } from 'express';
import { payoutsForStatement, type PrismaClient } from '@payout/db';
import { formatRupees, type PayoutStatus } from '@payout/domain';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { merchantOr404, showMessage } from '../../console-guards.js';
import { csvLine } from '../../csv.js';
import { istDate, istMidnight } from '../../views/format.js';
import { BAD_RANGE, DAY_MS, dateRange, payoutStatus } from './statement-range.js';

const STATEMENT_COLUMNS = [
  'Ack_no',
  'TransactionID',
  'Mode',
  'Amount',
  'Status',
  'Bankriff',
  'FailureReason',
  'BeneficiaryName',
  'Account',
  'Ifsc',
  'AcceptedAt',
  'SettledAt',
];

/**
 * The statement merchants ask for, GET /console/merchants/<MID>/statement.csv: every payout accepted in the
 * date range (IST days, both included; today when none is given), streamed as it is read.
 */
export function merchantStatementRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/merchants/:mid/statement.csv',
    allow('read', async (req, res, viewer) => {
      const merchant = await merchantOr404(deps.db, req, res, viewer);
      if (!merchant) return;
      const range = dateRange(req);
      if (range === null) {
        showMessage(res, viewer, 400, 'Bad date range', BAD_RANGE);
        return;
      }
      const today = istMidnight(istDate(new Date()))!;
      const { from, to } = range ?? { from: today, to: new Date(today.getTime() + DAY_MS) };
      const name = `${merchant.mid}-payouts-${istDate(from)}-to-${istDate(new Date(to.getTime() - DAY_MS))}.csv`;
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="${name}"`)
        .setHeader('Cache-Control', 'no-store');
      await writeStatement(res, deps.db, { merchantId: merchant.id, from, to, status: payoutStatus(req.query.status) });
      res.end();
    }),
  );
  return router;
}

async function writeStatement(
  res: Response,
  db: PrismaClient,
  range: { merchantId: number; from: Date; to: Date; status: PayoutStatus | undefined },
): Promise<void> {
  res.write(csvLine(STATEMENT_COLUMNS));
  for await (const p of payoutsForStatement(db, range.merchantId, range.from, range.to)) {
    if (range.status && p.status !== range.status) continue;
    res.write(
      csvLine([
        p.ackNo,
        p.transactionId,
        p.mode,
        formatRupees(p.amountPaise),
        p.status,
        p.bankReference ?? '',
        p.failureReason ?? '',
        p.beneficiaryName,
        p.beneficiaryAccount,
        p.beneficiaryIfsc ?? '',
        p.createdAt.toISOString(),
        p.settledAt?.toISOString() ?? '',
      ]),
    );
  }
}
