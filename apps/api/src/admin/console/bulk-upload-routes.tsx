import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { findCredentials, recordOperatorAction } from '@payout/db';
import { isAppError } from '@payout/domain';
import { createPayoutProducer } from '@payout/queue';
import { createMetrics } from '@payout/telemetry';
import { BULK_CSV_COLUMNS, BulkCsvRefused, bulkCsvBatchId, readBulkCsv } from '../../bulk/bulk-csv.js';
import { bulkAcceptedBody } from '@payout/contract';
import { submitBulkPayout, type SubmitBulkDeps } from '../../bulk/submit-bulk-payout.js';
import { CoalescingAccepter } from '../../payouts/coalescing-accepter.js';
import { exactRouter, type consoleAuthorization } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { formField, type Viewer } from './console-session.js';
import { merchantNotFound } from './find-routes.js';
import { renderPage } from './render.js';
import { ActionPage } from './views/action-page.js';
import { MessagePage } from './views/layout.js';

/** The upload form's path: console-routes.tsx reads its body, with a limit of its own, once the role allows it. */
export const BULK_UPLOAD_PATH = /^\/console\/merchants\/[^/]+\/bulk$/;
/** A 5,000-line file with every column filled stays well under this. */
export const BULK_UPLOAD_BODY_LIMIT = '4mb';

/**
 * An operator submits a merchant's bulk CSV (docs/console/bulk-upload.md): pasted into a form, so it works
 * without JavaScript. The file is read by the same code as `pnpm cli payout bulk` (bulk-csv.ts) and
 * submitted through the bulk endpoint's own path, so a malformed file is refused whole, with its line
 * numbers, before anything is reserved; an accepted batch is written to the audit log.
 */
export function bulkUploadRoutes(deps: ConsoleDependencies, allow: ReturnType<typeof consoleAuthorization>['allow']) {
  const router = exactRouter();
  let submitDeps: SubmitBulkDeps | undefined;
  // Built on first use, like the CLI's: the API's own accepter and producer, over the console's queue.
  const bulkDeps = (): SubmitBulkDeps =>
    (submitDeps ??= {
      db: deps.db,
      accepter: new CoalescingAccepter(deps.db, { maxBatch: 200, maxInFlight: 1, maxWaitMs: 30_000 }),
      producer: createPayoutProducer({
        connection: deps.payoutQueue.opts.connection as Redis,
        prefix: deps.payoutQueue.opts.prefix ?? 'bull',
        timeoutMs: 5_000,
      }),
      metrics: createMetrics('console'),
    });

  const form = (res: Response, viewer: Viewer, mid: string, status = 200, error?: string) =>
    renderPage(
      res,
      status,
      <ActionPage
        viewer={viewer}
        title={`Bulk payouts for ${mid}`}
        action={`/console/merchants/${encodeURIComponent(mid)}/bulk`}
        back={`/console/merchants/${encodeURIComponent(mid)}`}
        error={error}
        confirm="Submit the batch"
        explanation={
          <>
            <p>
              Paste the merchant's CSV file: a header line with the columns {BULK_CSV_COLUMNS.join(',')} (Mode,
              TransactionID, Amount and Name required), then one payout per line, at most 5,000. Every line is checked
              first: one bad line refuses the whole file and nothing is reserved.
            </p>
            <p>
              Submitting the same file again answers the same batch; it never pays twice. Each payout is reserved from
              the merchant's main wallet like a payout the merchant sent.
            </p>
          </>
        }
        fields={
          <>
            <label for="csv">CSV</label>
            <textarea id="csv" name="csv" required rows={14} spellcheck={false} />
            <label for="batch_id">BatchID (1–30 digits; from the file's content if left empty)</label>
            <input id="batch_id" name="batch_id" inputMode="numeric" pattern="[0-9]{1,30}" maxLength={30} />
          </>
        }
      />,
    );

  router
    .route('/console/merchants/:mid/bulk')
    .get(
      allow('act', async (req, res, viewer) => {
        const credentials = await findCredentials(deps.db, String(req.params.mid));
        if (!credentials) {
          merchantNotFound(res, viewer, String(req.params.mid));
          return;
        }
        form(res, viewer, credentials.merchant.mid);
      }),
    )
    .post(
      allow('act', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const csv = formField(req, 'csv') ?? '';
        const batchField = formField(req, 'batch_id')?.trim() ?? '';
        const why = formField(req, 'why')?.trim() ?? '';
        if (!why || why.length > 400) {
          form(res, viewer, mid, 422, 'Say why, in at most 400 characters: it goes to the audit log.');
          return;
        }
        if (batchField && !/^[0-9]{1,30}$/.test(batchField)) {
          form(res, viewer, mid, 422, 'The BatchID must be 1 to 30 digits.');
          return;
        }
        const credentials = await findCredentials(deps.db, mid);
        if (!credentials) {
          merchantNotFound(res, viewer, mid);
          return;
        }
        if (credentials.merchant.status !== 'ACTIVE') {
          form(res, viewer, mid, 409, `Merchant ${mid} is suspended: nothing was submitted.`);
          return;
        }
        let rows: Record<string, string>[];
        try {
          rows = readBulkCsv(csv);
        } catch (error) {
          if (!(error instanceof BulkCsvRefused)) throw error;
          form(res, viewer, mid, 422, error.message);
          return;
        }
        const batchId = batchField || bulkCsvBatchId(csv);
        let body: Record<string, unknown>;
        try {
          body = bulkAcceptedBody(await submitBulkPayout(bulkDeps(), req.log, credentials.merchant, batchId, rows));
        } catch (error) {
          if (!isAppError(error)) throw error;
          form(res, viewer, mid, error.httpStatus, `Batch ${batchId} refused: ${error.message}`);
          return;
        }
        await recordOperatorAction(deps.db, {
          actor: `console:${viewer.user.username}`,
          action: 'payout.bulk',
          merchantId: credentials.merchant.id,
          reason: why,
          detail: {
            batchId,
            total: body.total,
            accepted: body.accepted,
            failed: body.failed,
            rejected: body.rejected,
          },
        });
        renderPage(
          res,
          200,
          <MessagePage title={`Batch ${batchId} for ${mid}`} viewer={viewer}>
            <p>{String(body.message)}</p>
            <p>
              {String(body.total)} payouts: {String(body.accepted)} accepted, {String(body.failed)} failed,{' '}
              {String(body.rejected)} refused. Each is an ordinary payout of the merchant: find it by its TransactionID.
            </p>
            <p>
              <a href={`/console/merchants/${encodeURIComponent(mid)}`}>Back to {mid}</a>
            </p>
          </MessagePage>,
        );
      }),
    );
  return router;
}
