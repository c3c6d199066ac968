import type { Request, Response } from 'express';
import { bulkAcceptedBody, type BulkAcceptedBody } from '@payout/contract';
import { findCredentials, recordOperatorAction, type MerchantCredentials } from '@payout/db';
import { isAppError } from '@payout/domain';
import { BulkCsvRefused, bulkCsvBatchId, readBulkCsv, submitBulkPayout, type SubmitBulkDeps } from '@payout/use-cases';
import type { ConsoleDependencies } from '../console-dependencies.js';
import { formField, type Viewer } from '../console-session.js';
import { merchantNotFound } from '../find-routes.js';
import { renderBulkUploadForm } from './bulk-upload-form.js';
import { renderBulkUploadResult } from './bulk-upload-result.js';

/** The form as the operator filled it in. */
interface BulkUploadForm {
  mid: string;
  csv: string;
  batchField: string;
  why: string;
}

/**
 * The upload's POST: the form's own checks, then the merchant, then the file (refused whole, with its line
 * numbers, before anything is reserved), then the batch through the bulk endpoint's own path; an accepted
 * batch goes to the audit log (docs/console/bulk-upload.md).
 */
export async function submitBulkUpload(
  deps: ConsoleDependencies,
  bulkDeps: () => SubmitBulkDeps,
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<void> {
  const form = readForm(req);
  const refuse = (status: number, error: string) => renderBulkUploadForm(res, viewer, form.mid, status, error);
  const formProblem = problemOf(form);
  if (formProblem) {
    refuse(422, formProblem);
    return;
  }
  const credentials = await findCredentials(deps.db, form.mid);
  if (!credentials) {
    merchantNotFound(res, viewer, form.mid);
    return;
  }
  if (credentials.merchant.status !== 'ACTIVE') {
    refuse(409, `Merchant ${form.mid} is suspended: nothing was submitted.`);
    return;
  }
  let rows: Record<string, string>[];
  try {
    rows = readBulkCsv(form.csv);
  } catch (error) {
    if (!(error instanceof BulkCsvRefused)) throw error;
    refuse(422, error.message);
    return;
  }
  const batchId = form.batchField || bulkCsvBatchId(form.csv);
  let body: BulkAcceptedBody;
  try {
    const batch = await submitBulkPayout(bulkDeps(), {
      merchant: credentials.merchant,
      batchId,
      payouts: rows,
      log: req.log,
    });
    body = bulkAcceptedBody(batch);
  } catch (error) {
    if (!isAppError(error)) throw error;
    refuse(error.httpStatus, `Batch ${batchId} refused: ${error.message}`);
    return;
  }
  await auditBatch(deps, viewer, credentials.merchant, form.why, batchId, body);
  renderBulkUploadResult(res, viewer, form.mid, batchId, body);
}

function readForm(req: Request): BulkUploadForm {
  return {
    mid: String(req.params.mid),
    csv: formField(req, 'csv') ?? '',
    batchField: formField(req, 'batch_id')?.trim() ?? '',
    why: formField(req, 'why')?.trim() ?? '',
  };
}

function problemOf(form: BulkUploadForm): string | undefined {
  if (!form.why || form.why.length > 400) return 'Say why, in at most 400 characters: it goes to the audit log.';
  if (form.batchField && !/^[0-9]{1,30}$/.test(form.batchField)) return 'The BatchID must be 1 to 30 digits.';
  return undefined;
}

async function auditBatch(
  deps: ConsoleDependencies,
  viewer: Viewer,
  merchant: MerchantCredentials['merchant'],
  why: string,
  batchId: string,
  body: BulkAcceptedBody,
): Promise<void> {
  await recordOperatorAction(deps.db, {
    actor: `console:${viewer.user.username}`,
    action: 'payout.bulk',
    merchantId: merchant.id,
    reason: why,
    detail: {
      batchId,
      total: body.total,
      accepted: body.accepted,
      failed: body.failed,
      rejected: body.rejected,
    },
  });
}
