import type { Response } from 'express';
import { BULK_CSV_COLUMNS } from '@payout/use-cases';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';

/** The upload form for a merchant, with the error that sent the operator back to it, if any. */
export function renderBulkUploadForm(res: Response, viewer: Viewer, mid: string, status = 200, error?: string): void {
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Bulk payouts for ${mid}`}
      action={`/console/merchants/${encodeURIComponent(mid)}/bulk`}
      back={`/console/merchants/${encodeURIComponent(mid)}`}
      error={error}
      confirm="Request the batch"
      explanation={
        <>
          <p>
            Paste the merchant's CSV file: a header line with the columns {BULK_CSV_COLUMNS.join(',')} (Mode,
            TransactionID, Amount and Name required), then one payout per line, at most 5,000. Every line is checked
            first: one bad line refuses the whole file and nothing is stored.
          </p>
          <p>
            The batch becomes a request: another approver sees each beneficiary (new to this merchant or paid before),
            the total and the main wallet before and after, and only their approval reserves and queues the payouts. The
            same file twice is the same batch (its BatchID comes from the content); it never pays twice.
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
}
