import type { Request, Response } from 'express';
import { ENROLLMENT_TTL_MS } from '@payout/domain';
import { enrollmentStanding, finishEnrollment, offerSecondFactor, openOwnEnrollment } from '@payout/use-cases';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import {
  csrfMatches,
  endSession,
  enrollmentSecretOf,
  forgetEnrollmentSecret,
  formField,
  keepEnrollmentSecret,
  signInCsrfMatches,
  signInCsrfToken,
  startSession,
  viewerOf,
} from './console-session.js';
import { renderPage } from './render.js';
import { checkSignIn, type SignInCheck } from './password-check.js';
import { clientKey } from '../../auth/auth-failure-limit.js';
import {
  ENROLL_FINISH_PATH,
  ENROLL_PATH,
  EnrolledPage,
  EnrollFinishPage,
  EnrollStartPage,
  EnrollWaitingPage,
  LoginPage,
} from './views/login-page.js';
import { MessagePage } from './views/layout.js';
import { ist } from './views/format.js';

/**
 * The console's public doors: signing in (password and, where it is asked for, a code of the second factor),
 * a person's own enrollment (docs/operations.md, "People and roles"), and signing out.
 */
export function signInRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();
  const signInDeps = { ...deps, secondFactor: deps.approvals.secondFactor };

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
    const code = formField(req, 'code')?.trim();
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
    const checked = await checkSignIn(signInDeps, req, {
      username,
      password,
      code: code || undefined,
      actor: `console:${username}`,
    });
    if (refusedSignIn(res, checked, again)) return;
    const { user } = checked as Extract<SignInCheck, { kind: 'right' }>;
    await startSession(deps.db, req, res, user, deps.sessionTtlMs);
    req.log.info({ consoleUser: user.username }, 'console sign-in');
    res.redirect(303, '/console');
  });

  // A person's own enrollment: the secret lives in this browser's cookie only; the page shows its fingerprint.
  router.get(ENROLL_PATH, async (req, res) => {
    const secret = enrollmentSecretOf(req);
    const standing = secret ? await enrollmentStanding(deps, secret) : ({ kind: 'unknown' } as const);
    switch (standing.kind) {
      case 'unknown':
        if (secret) forgetEnrollmentSecret(req, res);
        renderPage(res, 200, <EnrollStartPage csrfToken={signInCsrfToken(req, res)} />);
        return;
      case 'waiting':
        renderPage(
          res,
          200,
          <EnrollWaitingPage
            username={standing.username}
            fingerprint={standing.fingerprint}
            expiresAt={ist(standing.expiresAt)}
          />,
        );
        return;
      case 'ready':
        await showFinishForm(req, res, secret!);
        return;
    }
  });

  router.post(ENROLL_PATH, async (req, res) => {
    const username = (formField(req, 'username') ?? '').trim().toLowerCase();
    const again = (status: number, error: string) =>
      renderPage(res, status, <EnrollStartPage csrfToken={signInCsrfToken(req, res)} error={error} />);
    if (!signInCsrfMatches(req)) {
      again(403, 'The form had expired. Please start again.');
      return;
    }
    // Opening enrollments is counted against this address as a failed sign-in is, so nobody fills the table.
    const address = clientKey(req);
    const waitSeconds = await deps.signIn.blockedFor(`enrollment:${username}`, address);
    if (waitSeconds > 0) {
      res.setHeader('Retry-After', String(waitSeconds));
      again(429, `Too many attempts from here. Try again in ${Math.ceil(waitSeconds / 60)} min.`);
      return;
    }
    await deps.signIn.failed(`enrollment:${username}`, address);
    const opened = await openOwnEnrollment(deps, { username });
    if (opened.kind === 'bad-username') {
      again(400, 'A username is 1–64 lower-case letters, digits, . _ or -, starting with a letter or digit.');
      return;
    }
    if (opened.kind === 'too-many') {
      again(429, 'This name has several enrollments open already: use the device you started one on.');
      return;
    }
    keepEnrollmentSecret(req, res, opened.secret, ENROLLMENT_TTL_MS);
    res.redirect(303, ENROLL_PATH);
  });

  router.post(ENROLL_FINISH_PATH, async (req, res) => {
    const secret = enrollmentSecretOf(req);
    if (!signInCsrfMatches(req) || !secret) {
      renderPage(res, 403, <EnrollStartPage csrfToken={signInCsrfToken(req, res)} error="The form had expired." />);
      return;
    }
    const finished = await finishEnrollment(signInDeps, {
      secret,
      password: formField(req, 'password') ?? '',
      repeated: formField(req, 'repeat') ?? '',
      code: formField(req, 'code') ?? '',
    });
    switch (finished.kind) {
      case 'not-ready':
        res.redirect(303, ENROLL_PATH);
        return;
      case 'bad-password':
        await showFinishForm(req, res, secret, 400, finished.problem);
        return;
      case 'bad-code':
        await showFinishForm(req, res, secret, 400, 'That code does not match the key above: type the current one.');
        return;
      case 'enrolled':
        forgetEnrollmentSecret(req, res);
        await startSession(deps.db, req, res, finished.user, deps.sessionTtlMs);
        req.log.info({ consoleUser: finished.user.username }, 'console enrollment finished');
        renderPage(
          res,
          200,
          <EnrolledPage
            username={finished.user.username}
            recoveryCodes={finished.recoveryCodes}
            setupComplete={finished.setupComplete}
          />,
        );
        return;
    }
  });

  async function showFinishForm(req: Request, res: Response, secret: string, status = 200, error?: string) {
    const offered = await offerSecondFactor(signInDeps, secret);
    if (offered.kind !== 'seed') {
      res.redirect(303, ENROLL_PATH);
      return;
    }
    renderPage(
      res,
      status,
      <EnrollFinishPage
        csrfToken={signInCsrfToken(req, res)}
        username={offered.username}
        seed={offered.seed}
        uri={offered.uri}
        {...(error !== undefined && { error })}
      />,
    );
  }

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

/** Answers a sign-in that did not pass; false when it passed. */
function refusedSignIn(res: Response, checked: SignInCheck, again: (status: number, error: string) => void): boolean {
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
      again(401, 'Wrong username or password, or the account is disabled or has not enrolled.');
      return true;
    case 'second-factor':
      if (checked.waitSeconds !== undefined) res.setHeader('Retry-After', String(checked.waitSeconds));
      again(checked.waitSeconds !== undefined ? 429 : 401, checked.why);
      return true;
  }
}
