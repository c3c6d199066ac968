import { findCredentials } from '@payout/db';
import { operatorBulkDeps, type SubmitBulkDeps } from '@payout/use-cases';
import { exactRouter, type consoleAuthorization } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { merchantNotFound } from './find-routes.js';
import { renderBulkUploadForm } from './bulk-upload/bulk-upload-form.js';
import { submitBulkUpload } from './bulk-upload/bulk-upload-submit.js';

/** The upload form's path: console-routes.tsx reads its body, with a limit of its own, once the role allows it. */
export const BULK_UPLOAD_PATH = /^\/console\/merchants\/[^/]+\/bulk$/;
/** A 5,000-line file with every column filled stays well under this. */
export const BULK_UPLOAD_BODY_LIMIT = '4mb';

/**
 * An operator submits a merchant's bulk CSV (docs/console/bulk-upload.md): pasted into a form, so it works
 * without JavaScript. The file is read by the same code as `pnpm cli payout bulk`
 * (packages/use-cases/src/intake/bulk-csv.ts) and submitted through the bulk endpoint's own path, so a
 * malformed file is refused whole, with its line numbers, before anything is reserved; an accepted batch is
 * written to the audit log.
 */
export function bulkUploadRoutes(deps: ConsoleDependencies, allow: ReturnType<typeof consoleAuthorization>['allow']) {
  const router = exactRouter();
  let submitDeps: SubmitBulkDeps | undefined;
  // Built on first use, like the CLI's: the API's own accepter and producer, over the console's queue.
  const bulkDeps = (): SubmitBulkDeps => (submitDeps ??= operatorBulkDeps(deps.db, deps.payoutQueue, 'console'));

  router
    .route('/console/merchants/:mid/bulk')
    .get(
      allow('act', async (req, res, viewer) => {
        const credentials = await findCredentials(deps.db, String(req.params.mid));
        if (!credentials) {
          merchantNotFound(res, viewer, String(req.params.mid));
          return;
        }
        renderBulkUploadForm(res, viewer, credentials.merchant.mid);
      }),
    )
    .post(allow('act', (req, res, viewer) => submitBulkUpload(deps, bulkDeps, req, res, viewer)));
  return router;
}
