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
      confirm="Submit the batch"
      explanation={
        <>
          <p>
            Paste the merchant's CSV file: a header line with the columns {BULK_CSV_COLUMNS.join(',')} (Mode,
            TransactionID, Amount and Name required), then one payout per line, at most 5,000. Every line is checked
            first: one bad line refuses the whole file and nothing is reserved.
          </p>
          <p>
            Submitting the same file again answers the same batch; it never pays twice. Each payout is reserved from the
            merchant's main wallet like a payout the merchant sent.
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
