import { findConsoleUserForSignIn } from '@payout/db';
import { verifyPassword } from '@payout/domain';
import { clientKey } from '../../auth/auth-failure-limit.js';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import {
  endSession,
  formField,
  signInCsrfMatches,
  signInCsrfToken,
  startSession,
  viewerOf,
  csrfMatches,
} from './console-session.js';
import { renderPage } from './render.js';
import { LoginPage } from './views/login-page.js';
import { MessagePage } from './views/layout.js';

// Checked against when the username is unknown, so a wrong username takes as long as a wrong password.
const DECOY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** GET and POST /console/login, POST /console/logout. */
export function signInRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();

  router.get('/console/login', (req, res) => {
    if (viewerOf(res)) {
      res.redirect(303, '/console');
      return;
    }
    renderPage(res, 200, <LoginPage csrfToken={signInCsrfToken(req, res)} />);
  });

  router.post('/console/login', async (req, res) => {
    const username = (formField(req, 'username') ?? '').trim().toLowerCase();
    const password = formField(req, 'password') ?? '';
    const again = (status: number, error: string) =>
      renderPage(res, status, <LoginPage csrfToken={signInCsrfToken(req, res)} username={username} error={error} />);
    if (!signInCsrfMatches(req)) {
      again(403, 'The form had expired. Please sign in again.');
      return;
    }
    if (!username || !password || username.length > 64 || password.length > 200) {
      again(400, 'Enter your username and password.');
      return;
    }
    const address = clientKey(req);
    const waitSeconds = await deps.signIn.blockedFor(username, address);
    if (waitSeconds > 0) {
      res.setHeader('Retry-After', String(waitSeconds));
      again(429, `Too many failed sign-ins. Try again in ${Math.ceil(waitSeconds / 60)} min.`);
      return;
    }
    // The password hash is the costly part: when as many are computing as this process allows, the answer
    // is an immediate 503 rather than a queue of hashes competing with the merchant API for its CPU.
    const checking = deps.signIn.withHashingSlot(async () => {
      const found = await findConsoleUserForSignIn(deps.db, username);
      return { user: found, matches: await verifyPassword(password, found?.passwordHash ?? DECOY_HASH) };
    });
    if (!checking) {
      req.log.warn('console sign-in refused: password checks at their limit');
      res.setHeader('Retry-After', '1');
      again(503, 'The console is busy checking other sign-ins. Please try again in a moment.');
      return;
    }
    const { user, matches } = await checking;
    if (!user || !matches || user.disabledAt) {
      await deps.signIn.failed(username, address);
      again(401, 'Wrong username or password, or the account is disabled.');
      return;
    }
    await deps.signIn.succeeded(username, address);
    await startSession(deps.db, req, res, user, deps.sessionTtlMs);
    req.log.info({ consoleUser: user.username }, 'console sign-in');
    res.redirect(303, '/console');
  });

  router.post('/console/logout', async (req, res) => {
    const viewer = viewerOf(res);
    if (viewer && !csrfMatches(req, viewer)) {
      renderPage(
        res,
        403,
        <MessagePage title="Refused" viewer={viewer}>
          This form was not sent by the console.
        </MessagePage>,
      );
      return;
    }
    await endSession(deps.db, req, res);
    res.redirect(303, '/console/login');
  });
  return router;
}
