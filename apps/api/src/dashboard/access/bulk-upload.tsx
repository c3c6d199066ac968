import express, { Router, type RequestHandler, type Response } from 'express';
import { findCredentials } from '@payout/db';
import { AppError, formatRupees, MAX_BULK_ITEMS } from '@payout/domain';
import {
  BULK_CSV_COLUMNS,
  findBulkBatchState,
  previewMerchantBulk,
  submitPreviewedBulk,
  type BulkBatchState,
  type MerchantBulkPreview,
} from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { formField } from '../../http/cookies.js';
import { permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardMessage, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { RefusalAlert } from './access-views.js';

/*
 * A merchant's bulk file on its dashboard (docs/dashboard.md, "Bulk upload"; docs/api.md, "Bulk payouts"):
 * the file is read and shown first — what will be paid, to whom, what will not and why — and only the
 * preview's Submit sends the batch, through the merchant API's own bulk use case, as the merchant's batch
 * under a BatchID made from what was previewed. Plain forms: a file input or a pasted text, no JavaScript.
 */

/** A 5,000-line file with every column filled stays well under this (the console's upload takes the same). */
const BULK_FILE_LIMIT = '4mb';
/** The Submit form carries the previewed items as JSON, form-encoded: up to about twice the file's size. */
const BULK_SUBMIT_LIMIT = '8mb';
const ITEMS_FIELD = 'items';
const DIGEST_FIELD = 'digest';

/** The bulk forms' bodies, read only for a signed-in user who may pay (the dashboard's own parser takes 16 kB). */
export function bulkUploadBodies(): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const mayPay = permit('pay', (_req, _res, _viewer, next) => next());
  router.post(
    '/dashboard/bulk',
    mayPay,
    express.raw({ type: 'multipart/form-data', limit: BULK_FILE_LIMIT }),
    multipartFields,
    express.urlencoded({ extended: false, limit: BULK_FILE_LIMIT, parameterLimit: 10 }),
  );
  router.post(
    '/dashboard/bulk/submit',
    mayPay,
    express.urlencoded({ extended: false, limit: BULK_SUBMIT_LIMIT, parameterLimit: 10 }),
  );
  return router;
}

/**
 * A multipart form (the file input's) as the text fields express.urlencoded would give, a file's content as
 * its text: Node's own multipart reader (the fetch API's FormData), so no parser of ours reads the bytes.
 */
const multipartFields: RequestHandler = async (req, _res, next) => {
  if (!Buffer.isBuffer(req.body)) {
    next();
    return;
  }
  let form: FormData;
  try {
    form = await new globalThis.Response(new Uint8Array(req.body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    throw new AppError('BAD_REQUEST', 'The form could not be read.');
  }
  const fields: Record<string, string> = {};
  const reads: Promise<void>[] = [];
  form.forEach((value, name) => {
    if (typeof value === 'string') fields[name] = value;
    else reads.push(value.text().then((text) => void (fields[name] = text)));
  });
  await Promise.all(reads);
  req.body = fields;
  next();
};

export function bulkUploadRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(
    '/dashboard/bulk',
    permit('pay', (_req, res, viewer) => renderBulkForm(res, viewer, 200)),
  );
  router.post(
    '/dashboard/bulk',
    permit('pay', async (req, res, viewer) => {
      const file = formField(req, 'file') ?? '';
      const csv = file.trim() ? file : (formField(req, 'csv') ?? '');
      if (!csv.trim()) {
        renderBulkForm(res, viewer, 422, 'Choose a CSV file or paste its lines.');
        return;
      }
      const merchant = await payingMerchant(deps, res, viewer);
      if (!merchant) return;
      const preview = await previewMerchantBulk(deps, { merchant, csv });
      switch (preview.kind) {
        case 'invalid':
          renderBulkForm(res, viewer, 422, preview.why);
          return;
        case 'submitted':
          res.redirect(303, batchPath(preview.batchId));
          return;
        case 'preview':
          renderDashboardPage(res, 200, <BulkPreviewPage viewer={viewer} preview={preview} />);
          return;
      }
    }),
  );
  router.post(
    '/dashboard/bulk/submit',
    permit('pay', async (req, res, viewer) => {
      const items = itemsOf(formField(req, ITEMS_FIELD));
      const digest = formField(req, DIGEST_FIELD) ?? '';
      const merchant = await payingMerchant(deps, res, viewer);
      if (!merchant) return;
      const submitted = items && (await submitPreviewedBulk(deps, { merchant, items, digest, log: req.log }));
      if (!submitted || submitted.kind === 'not-previewed') {
        renderBulkForm(
          res,
          viewer,
          422,
          'The form was not the preview as shown: nothing was sent. Upload the file again.',
        );
        return;
      }
      // Post, then redirect: a reload shows the batch and sends nothing.
      res.redirect(303, batchPath(submitted.batch.batchId));
    }),
  );
  router.get(
    '/dashboard/bulk/batches/:batchId',
    permit('read', async (req, res, viewer, next) => {
      const batchId = String(req.params.batchId);
      // Another merchant's batch is not found: the lookup is by this merchant's id.
      const batch = /^[0-9]{1,30}$/.test(batchId) && (await findBulkBatchState(deps.db, viewer.merchant.id, batchId));
      if (!batch) {
        next();
        return;
      }
      renderDashboardPage(res, 200, <BulkBatchPage viewer={viewer} batch={batch} />);
    }),
  );
  return router;
}

const batchPath = (batchId: string) => `/dashboard/bulk/batches/${encodeURIComponent(batchId)}`;

/** The merchant as the accept needs it (its own limits), or a page saying why it cannot pay now. */
async function payingMerchant(deps: ApiDependencies, res: Response, viewer: DashboardViewer) {
  const credentials = await findCredentials(deps.db, viewer.merchant.mid);
  if (credentials?.merchant.status === 'ACTIVE') return credentials.merchant;
  renderDashboardPage(
    res,
    409,
    <DashboardMessage title="Cannot pay now" viewer={viewer}>
      <p>Your account is suspended: nothing was sent. Ask your payout provider.</p>
    </DashboardMessage>,
  );
  return undefined;
}

/** The Submit form's items: a JSON array of items (objects of strings), as the preview wrote it. */
function itemsOf(text: string | undefined): Record<string, string>[] | undefined {
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isItem = (item: unknown) =>
    typeof item === 'object' && item !== null && Object.values(item).every((v) => typeof v === 'string');
  return Array.isArray(parsed) && parsed.every(isItem) ? (parsed as Record<string, string>[]) : undefined;
}

function renderBulkForm(res: Response, viewer: DashboardViewer, status: number, error?: string): void {
  renderDashboardPage(
    res,
    status,
    <DashboardPage title="Bulk upload" viewer={viewer}>
      {error && <RefusalAlert>{error}</RefusalAlert>}
      <p>
        A CSV file: a header line naming its columns, from {BULK_CSV_COLUMNS.join(', ')} (Mode, TransactionID, Amount
        and Name are required), then one payout per line, at most {MAX_BULK_ITEMS.toLocaleString('en-IN')}. Each line is
        a payout as the API's bulk endpoint takes it: Mode IMPS (Account, Ifsc) or UPI (Upi), Amount in rupees with two
        decimals ("101.00"), a TransactionID of your own, unique among your payouts.
      </p>
      <pre>
        {'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name\n' +
          'IMPS,20261207001,101.00,123456789012,HDFC0001234,,Asha Kumar\n' +
          'UPI,20261207002,250.00,,,asha.kumar@okhdfc,Asha Kumar'}
      </pre>
      <p>
        Nothing is sent yet: the next page shows the total, the beneficiaries you have never paid, and the lines that
        will not be sent and why. Only its Submit button sends the batch.
      </p>
      <form class="stack" method="post" action="/dashboard/bulk" enctype="multipart/form-data">
        <DashboardCsrf viewer={viewer} />
        <label for="file">CSV file</label>
        <input id="file" name="file" type="file" accept=".csv,text/csv" />
        <label for="csv">Or paste the file's lines</label>
        <textarea id="csv" name="csv" rows={10} spellcheck={false} />
        <button type="submit">Preview</button>
      </form>
    </DashboardPage>,
  );
}

function BulkPreviewPage(props: { viewer: DashboardViewer; preview: MerchantBulkPreview }) {
  const { viewer, preview } = props;
  const short = preview.availablePaise < preview.totalPaise;
  return (
    <DashboardPage title="Bulk upload: preview" viewer={viewer}>
      <dl class="facts">
        <dt>Payouts to send</dt>
        <dd>{preview.lines.length}</dd>
        <dt>Total</dt>
        <dd>₹ {formatRupees(preview.totalPaise)}</dd>
        <dt>Available now</dt>
        <dd>₹ {formatRupees(preview.availablePaise)}</dd>
        <dt>Beneficiaries you have never paid</dt>
        <dd>{preview.newBeneficiaries}</dd>
        <dt>Lines refused</dt>
        <dd>{preview.refused.length}</dd>
        <dt>BatchID</dt>
        <dd>
          <code>{preview.batchId}</code>
        </dd>
      </dl>
      {short && (
        <p class="error">
          The available balance does not cover the total: payouts are reserved in file order, and those that do not fit
          fail (or wait, if your account queues payouts when the balance is low).
        </p>
      )}
      {preview.refused.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Lines that will not be sent</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {preview.refused.map((r) => (
                <tr>
                  <td class="num">{r.line}</td>
                  <td>{r.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {preview.lines.length > 0 ? (
        <>
          <form class="stack" method="post" action="/dashboard/bulk/submit">
            <DashboardCsrf viewer={viewer} />
            <input type="hidden" name={ITEMS_FIELD} value={JSON.stringify(preview.items)} />
            <input type="hidden" name={DIGEST_FIELD} value={preview.digest} />
            <button type="submit">
              Submit {preview.lines.length} payouts, ₹ {formatRupees(preview.totalPaise)}
            </button>
          </form>
          <div class="table-wrap">
            <table>
              <caption>Payouts to send</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">TransactionID</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Beneficiary</th>
                  <th scope="col">Name</th>
                  <th scope="col" class="num">
                    Amount (₹)
                  </th>
                  <th scope="col">Paid before?</th>
                </tr>
              </thead>
              <tbody>
                {preview.lines.map((l) => (
                  <tr>
                    <td class="num">{l.line}</td>
                    <td>
                      <code>{l.transactionId}</code>
                    </td>
                    <td>{l.mode}</td>
                    <td>{l.beneficiary}</td>
                    <td>{l.name}</td>
                    <td class="num">{formatRupees(l.amountPaise)}</td>
                    <td>{l.beneficiaryIsNew ? <strong>New</strong> : 'Paid before'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p>No line can be sent: correct the file and upload it again.</p>
      )}
      <p>
        <a href="/dashboard/bulk">Upload another file</a>
      </p>
    </DashboardPage>
  );
}

function BulkBatchPage(props: { viewer: DashboardViewer; batch: BulkBatchState }) {
  const { viewer, batch } = props;
  const payouts = batch.items.flatMap((i) => ('payout' in i ? [i.payout] : []));
  const refused = batch.items.length - payouts.length;
  const totalPaise = payouts.reduce((sum, p) => sum + p.amountPaise, 0n);
  return (
    <DashboardPage title={`Batch ${batch.batchId}`} viewer={viewer}>
      <p role="status">
        The batch is sent: {payouts.length} payouts, ₹ {formatRupees(totalPaise)}
        {refused > 0 && `; ${refused} refused`}. Sending the same preview again shows this batch; nothing is paid twice.
      </p>
      <dl class="facts">
        <dt>BatchID</dt>
        <dd>
          <code>{batch.batchId}</code>
        </dd>
        {(['PENDING', 'SUCCESS', 'FAILED'] as const).map((status) => (
          <>
            <dt>{status.charAt(0) + status.slice(1).toLowerCase()}</dt>
            <dd>{payouts.filter((p) => p.status === status).length}</dd>
          </>
        ))}
      </dl>
      <p>
        {/* The payouts list takes the API's list filter by name (docs/api.md, "Listing payouts"). */}
        <a href={`/dashboard?BatchID=${encodeURIComponent(batch.batchId)}`}>The batch's payouts</a>
      </p>
    </DashboardPage>
  );
}
