import type { Request, Response } from 'express';
import { planOperatorBulkBatch } from '@payout/use-cases';
import { requestAndShow } from '../actions/action-helpers.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { formField, type Viewer } from '../console-session.js';
import { merchantNotFound } from '../find-routes.js';
import { renderBulkUploadForm } from './bulk-upload-form.js';

/** The form as the operator filled it in. */
interface BulkUploadForm {
  mid: string;
  csv: string;
  batchField: string;
  why: string;
}

/**
 * The upload's POST: the form's own checks, then the batch planned (the file refused whole, with its line
 * numbers, a TransactionID or BatchID used before, a balance that does not cover it), then stored as a
 * request whose page shows the approver what will happen; nothing is reserved until someone else approves
 * it (docs/console/bulk-upload.md).
 */
export async function submitBulkUpload(
  context: ConsoleContext,
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
  const plan = await planOperatorBulkBatch(context.deps, {
    mid: form.mid,
    csv: form.csv,
    ...(form.batchField && { batchId: form.batchField }),
  });
  switch (plan.kind) {
    case 'planned':
      await requestAndShow(context, res, viewer, plan.planned, form.why);
      return;
    case 'no-merchant':
      merchantNotFound(res, viewer, form.mid);
      return;
    case 'invalid':
      refuse(422, plan.why);
      return;
    case 'refused':
      refuse(409, `Nothing was asked for: ${plan.why}.`);
      return;
  }
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
