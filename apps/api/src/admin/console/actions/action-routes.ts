import type { Router } from 'express';
import { exactRouter } from '../console-authorization.js';
import type { ActionContext } from './action-helpers.js';
import { approvalRoutes } from './approval-routes.js';
import { creditAction } from './credit-action.js';
import { merchantActions } from './merchant-actions.js';
import { payoutNudgeActions } from './payout-nudge-actions.js';
import { resolveAction } from './resolve-action.js';

/**
 * Everything the console changes, one module per action, each checking its permission where it acts
 * (console-authorization.tsx): money actions become requests, approvals decide them.
 */
export function actionRoutes(context: ActionContext): Router {
  const router = exactRouter();
  router.use(resolveAction(context));
  router.use(payoutNudgeActions(context));
  router.use(creditAction(context));
  router.use(merchantActions(context));
  router.use(approvalRoutes(context));
  return router;
}
