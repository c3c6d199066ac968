import type { Response } from 'express';
import type { BulkAcceptedBody } from '@payout/contract';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { MessagePage } from '../views/layout.js';

/** The page answering an accepted batch: the bulk endpoint's own message and counts (packages/contract/src/bulk.ts). */
export function renderBulkUploadResult(
  res: Response,
  viewer: Viewer,
  mid: string,
  batchId: string,
  body: BulkAcceptedBody,
): void {
  renderPage(
    res,
    200,
    <MessagePage title={`Batch ${batchId} for ${mid}`} viewer={viewer}>
      <p>{body.message}</p>
      <p>
        {String(body.total)} payouts: {String(body.accepted)} accepted, {String(body.failed)} failed,{' '}
        {String(body.rejected)} refused. Each is an ordinary payout of the merchant: find it by its TransactionID.
      </p>
      <p>
        <a href={`/console/merchants/${encodeURIComponent(mid)}`}>Back to {mid}</a>
      </p>
    </MessagePage>,
  );
}
