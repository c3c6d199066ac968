import express from 'express';
import { answerBodyReadingErrors } from '../../http/error-handler.js';
import { bankControlRoutes } from './actions/bank-control.js';
import { creditWalletRoutes } from './actions/credit-wallet.js';
import { routingSettingsRoutes } from './actions/routing-settings.js';
import { decideRequestRoutes } from './actions/decide-request.js';
import { enableWebhookRoutes } from './actions/enable-webhook.js';
import { issueTokenRoutes } from './actions/issue-token.js';
import { merchantPeopleRoutes } from './actions/merchant-people.js';
import { personalKeyRoutes } from './actions/personal-keys.js';
import { replayWebhookRoutes } from './actions/replay-webhook.js';
import { requeueInquiryRoutes } from './actions/requeue-inquiry.js';
import { resolvePayoutRoutes } from './actions/resolve-payout.js';
import { revokeTokenRoutes } from './actions/revoke-token.js';
import { ipAllowlistRoutes } from './actions/ip-allowlist.js';
import { BULK_UPLOAD_BODY_LIMIT, BULK_UPLOAD_PATH, bulkUploadRoutes } from './bulk-upload-routes.js';
import { consoleAuthorization, exactRouter } from './console-authorization.js';
import type { ConsoleContext, ConsoleDependencies } from './console-dependencies.js';
import { consoleErrors, noSuchPage, requireCsrfOnPost, requireViewer } from './console-gates.js';
import { consoleSession } from './console-session.js';
import { CONSOLE_STYLESHEET } from './console-stylesheet.js';
import { approvalsRoutes } from './pages/approvals.js';
import { auditLogRoutes } from './pages/audit-log.js';
import { keysRoutes } from './pages/keys.js';
import { discrepanciesRoutes } from './pages/lists/discrepancies.js';
import { failedWebhooksRoutes } from './pages/lists/failed-webhooks.js';
import { waitingPayoutsRoutes } from './pages/lists/waiting-payouts.js';
import { merchantPayoutsRoutes } from './pages/merchant/merchant-payouts.js';
import { merchantRoutes } from './pages/merchant/merchant-route.js';
import { merchantStatementRoutes } from './pages/merchant/merchant-statement.js';
import { payoutRoutes } from './pages/payout/payout-route.js';
import { searchRoutes } from './pages/search.js';
import { todayRoutes } from './pages/today/today-route.js';
import { signInRoutes } from './sign-in-routes.js';
import { statementBreakRoutes } from './statement-break-routes.js';

export type { ConsoleDependencies } from './console-dependencies.js';

/**
 * The support console (docs/operations.md, "Support console"): server-rendered pages under /console that
 * work without JavaScript. Everything but sign-in needs a session; every POST needs the session's CSRF
 * token; each page and action checks the viewer's role itself (console-authorization.tsx), and paths
 * match exactly, so no spelling of a path reaches past the role.
 */
export function consoleRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();
  const { allow } = consoleAuthorization(deps.db);
  router.get('/console/assets/console.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(CONSOLE_STYLESHEET);
  });
  // A bulk CSV is pasted into a form: its own, larger limit, read only once the viewer is known to be
  // allowed to ask for one (then the general parser skips it).
  const readBulkUpload = express.urlencoded({ extended: false, limit: BULK_UPLOAD_BODY_LIMIT, parameterLimit: 10 });
  router.post(
    BULK_UPLOAD_PATH,
    requireViewer,
    allow('request', (_req, _res, _viewer, next) => next()),
    readBulkUpload,
  );
  router.use('/console', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  router.use(signInRoutes(deps));
  router.use('/console', requireViewer, requireCsrfOnPost);
  const context: ConsoleContext = { deps, allow };
  // The pages: anyone signed in may read them.
  router.use(searchRoutes(context));
  router.use(payoutRoutes(context));
  router.use(waitingPayoutsRoutes(context));
  router.use(failedWebhooksRoutes(context));
  router.use(discrepanciesRoutes(context));
  router.use(statementBreakRoutes(deps, allow));
  router.use(auditLogRoutes(context));
  router.use(todayRoutes(context));
  router.use(merchantRoutes(context));
  router.use(merchantPayoutsRoutes(context));
  router.use(merchantStatementRoutes(context));
  router.use(approvalsRoutes(context));
  router.use(keysRoutes(context));
  // The actions, one module each: those that move no money are done alone, a money action becomes a
  // request, and deciding a request is a second person's (docs/operations.md, "Roles" and "Approvals").
  router.use(replayWebhookRoutes(context));
  router.use(requeueInquiryRoutes(context));
  router.use(revokeTokenRoutes(context));
  router.use(ipAllowlistRoutes(context));
  router.use(enableWebhookRoutes(context));
  router.use(bankControlRoutes(context));
  router.use(routingSettingsRoutes(context));
  router.use(bulkUploadRoutes(context));
  router.use(resolvePayoutRoutes(context));
  router.use(creditWalletRoutes(context));
  router.use(issueTokenRoutes(context));
  router.use(merchantPeopleRoutes(context));
  router.use(decideRequestRoutes(context));
  // A person's own keys: every role makes and revokes its own (docs/operations.md, "Security model").
  router.use(personalKeyRoutes(context));
  router.use('/console', noSuchPage(deps.db));
  // A form body that could not be read is answered as the API answers any unreadable body, never logged.
  router.use('/console', answerBodyReadingErrors, consoleErrors);
  return router;
}

/** Loads the session (used by the console and the queue dashboard). */
export { consoleSession };
