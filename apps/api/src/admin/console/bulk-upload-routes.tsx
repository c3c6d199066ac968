import { findCredentials } from '@payout/db';
import { exactRouter } from './console-authorization.js';
import type { ConsoleContext } from './console-dependencies.js';
import { merchantNotFound } from './find-routes.js';
import { renderBulkUploadForm } from './bulk-upload/bulk-upload-form.js';
import { submitBulkUpload } from './bulk-upload/bulk-upload-submit.js';

/** The upload form's path: console-routes.tsx reads its body, with a limit of its own, once the role allows it. */
export const BULK_UPLOAD_PATH = /^\/console\/merchants\/[^/]+\/bulk$/;
/** A 5,000-line file with every column filled stays well under this. */
export const BULK_UPLOAD_BODY_LIMIT = '4mb';

/**
 * An operator asks for a merchant's bulk batch from a CSV (docs/console/bulk-upload.md): pasted into a form,
 * so it works without JavaScript. The file is read by the same code as `pnpm cli payout bulk`
 * (packages/use-cases/src/intake/bulk-csv.ts), so a malformed file is refused whole, with its line numbers,
 * and nothing is stored; a good one becomes a request that another approver approves before anything is
 * reserved (docs/operations.md, "Approvals").
 */
export function bulkUploadRoutes(context: ConsoleContext) {
  const { deps, allow } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/bulk')
    .get(
      allow('request', async (req, res, viewer) => {
        const credentials = await findCredentials(deps.db, String(req.params.mid));
        if (!credentials) {
          merchantNotFound(res, viewer, String(req.params.mid));
          return;
        }
        renderBulkUploadForm(res, viewer, credentials.merchant.mid);
      }),
    )
    .post(allow('request', (req, res, viewer) => submitBulkUpload(context, req, res, viewer)));
  return router;
}
