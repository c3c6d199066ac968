import type { Response } from 'express';
import { changeOwnConsolePassword, recordOperatorAction } from '@payout/db';
import { hashPassword, newPasswordProblem } from '@payout/domain';
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
import { checkPassword, type PasswordCheck } from './password-check.js';
import { CHANGE_PASSWORD_PATH, ChangePasswordPage, LoginPage } from './views/login-page.js';
import { MessagePage } from './views/layout.js';

/** GET and POST /console/login, POST /console/login/password, POST /console/logout. */
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
    const checked = await checkPassword(deps, req, username, password);
    if (refusedSignIn(res, checked, again)) return;
    const { user } = checked as Extract<PasswordCheck, { kind: 'right' }>;
    if (user.mustChangePassword) {
      // A password someone else saw (docs/operations.md, "Security model"): no session until they choose their own.
      renderPage(res, 200, <ChangePasswordPage csrfToken={signInCsrfToken(req, res)} username={user.username} />);
      return;
    }
    await startSession(deps.db, req, res, user, deps.sessionTtlMs);
    req.log.info({ consoleUser: user.username }, 'console sign-in');
    res.redirect(303, '/console');
  });

  // The first sign-in after a password was made for someone: the one-time password again, and their own.
  router.post(CHANGE_PASSWORD_PATH, async (req, res) => {
    const username = (formField(req, 'username') ?? '').trim().toLowerCase();
    const password = formField(req, 'password') ?? '';
    const chosen = formField(req, 'newPassword') ?? '';
    const again = (status: number, error: string) =>
      renderPage(
        res,
        status,
        <ChangePasswordPage csrfToken={signInCsrfToken(req, res)} username={username} error={error} />,
      );
    if (!signInCsrfMatches(req)) {
      again(403, 'The form had expired. Please sign in again.');
      return;
    }
    const problem = newPasswordProblem(password, chosen, formField(req, 'repeat') ?? '');
    if (!username || username.length > 64 || password.length > 200 || problem) {
      again(400, problem ?? 'Enter your username and one-time password.');
      return;
    }
    const checked = await checkPassword(deps, req, username, password);
    if (refusedSignIn(res, checked, again)) return;
    const { user } = checked as Extract<PasswordCheck, { kind: 'right' }>;
    if (!user.mustChangePassword) {
      again(409, 'Your password is already your own: sign in with it.');
      return;
    }
    const changed = await deps.db.$transaction(async (tx) => {
      const done = await changeOwnConsolePassword(tx, user.id, await hashPassword(chosen));
      if (done) {
        await recordOperatorAction(tx, {
          actor: `console:${done.username}`,
          action: 'user.password-change',
          reason: 'chose their own password at first sign-in',
          detail: { username: done.username },
        });
      }
      return done;
    });
    if (!changed) {
      again(401, 'Wrong username or password, or the account is disabled.');
      return;
    }
    await startSession(deps.db, req, res, changed, deps.sessionTtlMs);
    req.log.info({ consoleUser: changed.username }, 'console sign-in after choosing a password');
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

/** Answers a sign-in whose password check did not pass; false when it passed. */
function refusedSignIn(res: Response, checked: PasswordCheck, again: (status: number, error: string) => void): boolean {
  switch (checked.kind) {
    case 'right':
      return false;
    case 'blocked':
      res.setHeader('Retry-After', String(checked.waitSeconds));
      again(429, `Too many failed sign-ins. Try again in ${Math.ceil(checked.waitSeconds / 60)} min.`);
      return true;
    case 'busy':
      res.setHeader('Retry-After', '1');
      again(503, 'The console is busy checking other sign-ins. Please try again in a moment.');
      return true;
    case 'wrong':
      again(401, 'Wrong username or password, or the account is disabled.');
      return true;
  }
}
