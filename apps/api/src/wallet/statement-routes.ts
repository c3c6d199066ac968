import { Router, type Response } from 'express';
import {
  MESSAGES,
  parseStatementQuery,
  statementBody,
  statementCsvRows,
  statementFileName,
  type StatementPeriod,
} from '@payout/contract';
import { AppError } from '@payout/domain';
import { findStatementPage, openStatement, type LookupDatabases, type PrismaClient } from '@payout/db';
import { csvLine } from '../admin/console/csv.js';
import { merchantOf, type AuthenticatedMerchant } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

/** Entries read per statement of the CSV: what the file holds in memory at once. */
const CSV_BATCH = 1000;

/**
 * GET /api/statement: the statement of the merchant's main wallet for a period (docs/api.md, "Statement"), a
 * page of JSON at a time or the whole period as a CSV file. Authenticated and rate-limited like the wallet
 * lookup, whose invalid-MID answer and whose balance it shares; read from the replica when it has caught up
 * (READ_DATABASE_URL), like the lookups.
 */
export function statementRoutes(
  deps: { db: PrismaClient; readDb?: PrismaClient | undefined } & MerchantAccessDeps,
): Router {
  const router = Router();
  router
    .route('/api/statement')
    .get(...merchantAccess(deps, 'BAD REQUEST'), async (req, res) => {
      const { period, format, limit, after } = parseStatementQuery(req.query, new Date());
      const merchant = merchantOf(res);
      const dbs: LookupDatabases = { primary: deps.db, replica: deps.readDb };
      if (format === 'csv') {
        await sendStatementCsv(res, dbs, merchant, period);
        return;
      }
      const page = await findStatementPage(dbs, { merchantId: merchant.id, period, after, limit });
      if (!page) throw new AppError('NOT_FOUND', MESSAGES.walletNotFound);
      sendJson(res, 200, statementBody(period, page));
    })
    .all(methodNotAllowed);
  return router;
}

/**
 * The whole period as a CSV attachment, streamed a batch of entries at a time: each batch is read only once the
 * one before is handed to the connection, so a long period never sits in memory, and a client that hangs up
 * stops the reading. Cells are written by the console's csvLine, which defuses anything a spreadsheet would run
 * as a formula. A failure after the first bytes can only cut the file short (error-handler.ts ends the
 * connection), never turn it into an error body. The dashboard's statement download sends the same file
 * (docs/dashboard.md).
 */
export async function sendStatementCsv(
  res: Response,
  dbs: LookupDatabases,
  merchant: Pick<AuthenticatedMerchant, 'id' | 'mid'>,
  period: StatementPeriod,
): Promise<void> {
  const statement = await openStatement(dbs, { merchantId: merchant.id, period, batch: CSV_BATCH });
  if (!statement) throw new AppError('NOT_FOUND', MESSAGES.walletNotFound);
  res
    .status(200)
    .setHeader('Content-Type', 'text/csv; charset=utf-8')
    .setHeader('Content-Disposition', `attachment; filename="${statementFileName(merchant.mid, period, new Date())}"`)
    .setHeader('Cache-Control', 'no-store');
  let chunk = '';
  for await (const row of statementCsvRows(period, statement.openingPaise, statement.entries, () => new Date())) {
    chunk += csvLine(row);
    if (chunk.length < 64 * 1024) continue;
    if (!(await written(res, chunk))) return;
    chunk = '';
  }
  if (await written(res, chunk)) res.end();
}

/** Writes to the connection and waits while its buffer is full; false once the client has gone. */
export async function written(res: Response, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !res.destroyed;
}
