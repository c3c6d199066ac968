import { Router } from 'express';
import { downtimesBody } from '@payout/contract';
import { listOpenBankDowntimes, type PrismaClient } from '@payout/db';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

/**
 * GET /api/downtimes: the sponsor banks down or degraded now, per mode (CONTRACT.md "Several banks";
 * docs/api.md, "Downtimes"). The same for every merchant; read from the primary, since a downtime opened a
 * moment ago is what a merchant asks about.
 */
export function downtimeRoutes(deps: { db: PrismaClient } & MerchantAccessDeps): Router {
  const router = Router();
  router
    .route('/api/downtimes')
    .get(...merchantAccess(deps, 'FAILED'), async (_req, res) => {
      sendJson(res, 200, downtimesBody(await listOpenBankDowntimes(deps.db)));
    })
    .all(methodNotAllowed);
  return router;
}
