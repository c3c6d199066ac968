import { Router, type Request, type Response } from 'express';
import { findMerchantUserForSignIn, storeMerchantUserPasswordHash } from '@payout/db';
import { ENROLLMENT_TTL_MS, hashPassword, merchantUserEmail, needsRehash } from '@payout/domain';
import {
  finishMerchantEnrollment,
  merchantEnrollmentStanding,
  offerMerchantSecondFactor,
  openMerchantUserEnrollment,
  proveMerchantSecondFactor,
  secondFactorRefusal,
} from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { clientKey } from '../../auth/auth-failure-limit.js';
import { checkPasswordOf } from '../../admin/console/password-check.js';
import { ist } from '../../admin/console/views/format.js';
import { formField } from '../../http/cookies.js';
import { DashboardMessage, renderDashboardPage } from '../dashboard-layout.js';
import { permit } from '../dashboard-gates.js';
import {
  dashboardCsrfMatches,
  dashboardEnrollmentSecretOf,
  dashboardSignInCsrfMatches,
  dashboardSignInCsrfToken,
  dashboardViewerOf,
  endDashboardSession,
  forgetDashboardEnrollmentSecret,
  keepDashboardEnrollmentSecret,
  startDashboardSession,
} from '../dashboard-session.js';
import {
  DASHBOARD_ENROLL_FINISH_PATH,
  DASHBOARD_ENROLL_PATH,
  DASHBOARD_LOGIN_PATH,
  DASHBOARD_LOGOUT_PATH,
  DashboardEnrolledPage,
  DashboardEnrollFinishPage,
  DashboardEnrollStartPage,
  DashboardEnrollWaitingPage,
  DashboardLoginPage,
} from './sign-in-pages.js';

/**
 * The dashboard's public doors (docs/dashboard.md, "Sessions" and "Enrollment"): signing in with e-mail,
 * password and a code of the second factor, a person's own enrollment, and signing out. The only routes of
 * the dashboard open without a session, so the route walk (test/dashboard/dashboard-route-walk.test.ts) knows
 * them by {@link PUBLIC_DASHBOARD_ROUTES}.
 */
export function dashboardSignInRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const people = { db: deps.db, secondFactor: deps.dashboardPeople.secondFactor };
  const { signIn } = deps.dashboardPeople;

  router.get(DASHBOARD_LOGIN_PATH, (req, res) => {
    if (dashboardViewerOf(res)) {
      res.redirect(303, '/dashboard');
      return;
    }
    renderDashboardPage(res, 200, <DashboardLoginPage csrfToken={dashboardSignInCsrfToken(req, res)} />);
  });

  router.post(DASHBOARD_LOGIN_PATH, async (req, res) => {
    const typed = (formField(req, 'email') ?? '').trim().toLowerCase().slice(0, 254);
    const password = formField(req, 'password') ?? '';
    const code = formField(req, 'code')?.trim();
    const again = (status: number, error: string) =>
      renderDashboardPage(
        res,
        status,
        <DashboardLoginPage csrfToken={dashboardSignInCsrfToken(req, res)} email={typed} error={error} />,
      );
    if (!dashboardSignInCsrfMatches(req)) {
      again(403, 'The form had expired. Please sign in again.');
      return;
    }
    if (!typed || !password || password.length > 200) {
      again(400, 'Enter your e-mail, password and the code from your authenticator app.');
      return;
    }
    // An address that is no e-mail is checked like an unknown one (a decoy hash), so the answer and its time
    // are the same for every wrong sign-in: nothing says whether an e-mail is anyone's.
    const email = merchantUserEmail(typed);
    const checked = await checkPasswordOf(signIn, req, `dashboard:${typed}`, password, async () =>
      email ? findMerchantUserForSignIn(deps.db, email) : null,
    );
    switch (checked.kind) {
      case 'blocked':
        res.setHeader('Retry-After', String(checked.waitSeconds));
        again(429, `Too many failed sign-ins. Try again in ${Math.ceil(checked.waitSeconds / 60)} min.`);
        return;
      case 'busy':
        res.setHeader('Retry-After', '1');
        again(503, 'The dashboard is busy checking other sign-ins. Please try again in a moment.');
        return;
      case 'wrong':
        again(401, 'Wrong e-mail or password, or the account is disabled or has not enrolled.');
        return;
      case 'right':
        break;
    }
    const { passwordHash, ...user } = checked.user;
    // Every merchant user enrolled with a second factor, so every sign-in asks for it (the console asks it of
    // whoever has one, docs/operations.md "Second factor").
    const proof = await proveMerchantSecondFactor(people, user, code || undefined);
    if (proof.kind !== 'proved') {
      if (proof.kind === 'locked') res.setHeader('Retry-After', String(proof.waitSeconds));
      again(proof.kind === 'locked' ? 429 : 401, secondFactorRefusal(proof));
      return;
    }
    if (needsRehash(passwordHash)) await storeMerchantUserPasswordHash(deps.db, user.id, await hashPassword(password));
    await startDashboardSession(deps.db, req, res, user);
    req.log.info({ merchantUser: user.id, merchantId: user.merchantId }, 'dashboard sign-in');
    res.redirect(303, '/dashboard');
  });

  // A person's own enrollment: the secret lives in this browser's cookie only; the page shows its fingerprint.
  router.get(DASHBOARD_ENROLL_PATH, async (req, res) => {
    const secret = dashboardEnrollmentSecretOf(req);
    const standing = secret ? await merchantEnrollmentStanding(deps, secret) : ({ kind: 'unknown' } as const);
    switch (standing.kind) {
      case 'unknown':
        if (secret) forgetDashboardEnrollmentSecret(req, res);
        renderDashboardPage(res, 200, <DashboardEnrollStartPage csrfToken={dashboardSignInCsrfToken(req, res)} />);
        return;
      case 'waiting':
        renderDashboardPage(
          res,
          200,
          <DashboardEnrollWaitingPage
            email={standing.email}
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

  router.post(DASHBOARD_ENROLL_PATH, async (req, res) => {
    const typed = (formField(req, 'email') ?? '').trim().toLowerCase().slice(0, 254);
    const again = (status: number, error: string) =>
      renderDashboardPage(
        res,
        status,
        <DashboardEnrollStartPage csrfToken={dashboardSignInCsrfToken(req, res)} error={error} />,
      );
    if (!dashboardSignInCsrfMatches(req)) {
      again(403, 'The form had expired. Please start again.');
      return;
    }
    // Opening enrollments is counted against this address as a failed sign-in is, so nobody fills the table.
    const address = clientKey(req);
    const waitSeconds = await signIn.blockedFor(`enrollment:${typed}`, address);
    if (waitSeconds > 0) {
      res.setHeader('Retry-After', String(waitSeconds));
      again(429, `Too many attempts from here. Try again in ${Math.ceil(waitSeconds / 60)} min.`);
      return;
    }
    await signIn.failed(`enrollment:${typed}`, address);
    const opened = await openMerchantUserEnrollment(deps, { email: typed });
    if (opened.kind === 'bad-email') {
      again(400, 'Enter your e-mail address.');
      return;
    }
    if (opened.kind === 'too-many') {
      again(429, 'This e-mail has several enrollments open already: use the device you started one on.');
      return;
    }
    keepDashboardEnrollmentSecret(req, res, opened.secret, ENROLLMENT_TTL_MS);
    res.redirect(303, DASHBOARD_ENROLL_PATH);
  });

  router.post(DASHBOARD_ENROLL_FINISH_PATH, async (req, res) => {
    const secret = dashboardEnrollmentSecretOf(req);
    if (!dashboardSignInCsrfMatches(req) || !secret) {
      renderDashboardPage(
        res,
        403,
        <DashboardEnrollStartPage csrfToken={dashboardSignInCsrfToken(req, res)} error="The form had expired." />,
      );
      return;
    }
    const finished = await finishMerchantEnrollment(people, {
      secret,
      password: formField(req, 'password') ?? '',
      repeated: formField(req, 'repeat') ?? '',
      code: formField(req, 'code') ?? '',
    });
    switch (finished.kind) {
      case 'not-ready':
        res.redirect(303, DASHBOARD_ENROLL_PATH);
        return;
      case 'bad-password':
        await showFinishForm(req, res, secret, 400, finished.problem);
        return;
      case 'bad-code':
        await showFinishForm(req, res, secret, 400, 'That code does not match the key above: type the current one.');
        return;
      case 'enrolled':
        forgetDashboardEnrollmentSecret(req, res);
        await startDashboardSession(deps.db, req, res, finished.user);
        req.log.info({ merchantUser: finished.user.id }, 'dashboard enrollment finished');
        renderDashboardPage(
          res,
          200,
          <DashboardEnrolledPage email={finished.user.email} recoveryCodes={finished.recoveryCodes} />,
        );
        return;
    }
  });

  async function showFinishForm(req: Request, res: Response, secret: string, status = 200, error?: string) {
    const offered = await offerMerchantSecondFactor(people, secret);
    if (offered.kind !== 'seed') {
      res.redirect(303, DASHBOARD_ENROLL_PATH);
      return;
    }
    renderDashboardPage(
      res,
      status,
      <DashboardEnrollFinishPage
        csrfToken={dashboardSignInCsrfToken(req, res)}
        email={offered.email}
        seed={offered.seed}
        uri={offered.uri}
        {...(error !== undefined && { error })}
      />,
    );
  }

  // Signing out is a signed-in action like any other: the session's CSRF token, behind permit().
  router.post(
    DASHBOARD_LOGOUT_PATH,
    permit('read', async (req, res, viewer) => {
      if (!dashboardCsrfMatches(req, viewer)) {
        renderDashboardPage(
          res,
          403,
          <DashboardMessage title="Refused" viewer={viewer}>
            <p>This form was not sent by the dashboard. Nothing changed.</p>
          </DashboardMessage>,
        );
        return;
      }
      await endDashboardSession(deps.db, req, res);
      res.redirect(303, DASHBOARD_LOGIN_PATH);
    }),
  );
  return router;
}

/** The dashboard's routes open without a session ("METHOD path"), for the route walk. */
export const PUBLIC_DASHBOARD_ROUTES: readonly string[] = [
  `GET ${DASHBOARD_LOGIN_PATH}`,
  `POST ${DASHBOARD_LOGIN_PATH}`,
  `GET ${DASHBOARD_ENROLL_PATH}`,
  `POST ${DASHBOARD_ENROLL_PATH}`,
  `POST ${DASHBOARD_ENROLL_FINISH_PATH}`,
  'GET /dashboard/assets/dashboard.css',
];
