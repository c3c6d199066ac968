import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  issuePersonalCredential,
  recordOperatorAction,
  revokePersonalCredentialById,
  type PrismaClient,
} from '@payout/db';
import { AppError, CONSOLE_ROLES, CONSOLE_USERNAME_PATTERN, ENROLLMENT_SECRET_PATTERN } from '@payout/domain';
import { validate } from '@payout/contract';
import {
  approvalJson,
  disableUser,
  enrollmentStanding,
  finishEnrollment,
  offerSecondFactor,
  openOwnEnrollment,
  planPasswordReset,
  planRoleChange,
  planUserAdd,
  requestPeopleChange,
  type ApprovalDeps,
  type PlanPeopleChangeOutcome,
} from '@payout/use-cases';
import { clientKey } from '../../auth/auth-failure-limit.js';
import { sendDecision } from './decision-answer.js';
import { methodNotAllowed } from '../../http/error-handler.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';
import type { Viewer } from '../console/console-session.js';
import { checkSignIn } from '../console/password-check.js';
import type { SignInLimiter } from '../console/sign-in-limiter.js';

export interface PeopleRoutesDependencies extends ApprovalDeps {
  db: PrismaClient;
  signIn: SignInLimiter;
  /** How long a CLI sign-in lasts (ADMIN_CLI_SIGN_IN_TTL_MS). */
  cliSignInTtlMs: number;
}

const username = z
  .string({ error: 'username is required' })
  .trim()
  .toLowerCase()
  .regex(CONSOLE_USERNAME_PATTERN, { error: 'username is 1–64 lower-case letters, digits, . _ or -' });
const role = z
  .string({ error: 'role is required' })
  .transform((text) => text.toUpperCase())
  .pipe(z.enum(CONSOLE_ROLES, { error: 'role is support, operator or approver' }));
const why = z.string({ error: 'why is required' }).trim().min(1, { error: 'why is required' }).max(400);

/** A code of the person's second factor: six digits from their app, or a recovery code. */
const code = z.string().trim().min(1).max(20).optional();
/** The fingerprint the person to be added or reset read out from their own enrollment. */
const fingerprint = z
  .string({
    error: 'fingerprint is required: the person opens /console/enroll or runs pnpm cli enroll and reads it out',
  })
  .trim()
  .min(1)
  .max(20);
const enrollmentSecret = z
  .string({ error: 'secret is required' })
  .regex(ENROLLMENT_SECRET_PATTERN, { error: 'secret is the enrollment secret pnpm cli enroll keeps' });

const signInBody = z.strictObject({
  username,
  password: z.string({ error: 'password is required' }).min(1, { error: 'password is required' }).max(200),
  code,
});
const addUserBody = z.strictObject({ username, role, why, fingerprint, code });
const roleBody = z.strictObject({ role, why, code });
const resetBody = z.strictObject({ why, fingerprint, code });
const whyBody = z.strictObject({ why });
const openEnrollmentBody = z.strictObject({ username });
const enrollmentBody = z.strictObject({ secret: enrollmentSecret });
const finishEnrollmentBody = z.strictObject({
  secret: enrollmentSecret,
  password: z.string({ error: 'password is required' }).max(200),
  code: z.string({ error: 'code is required' }).trim().min(1).max(20),
});

/**
 * People on the admin API (docs/operations.md, "Security model"): the CLI's sign-in, sign-out and
 * "who am I", and the changes to people — adding one, another role, a password reset — each a request
 * another approver approves, and disabling one, which an approver does alone.
 */
export function peopleRoutes(deps: PeopleRoutesDependencies) {
  const router = exactRouter();
  const { allowJson } = consoleAuthorization(deps.db);
  const json = express.json({ limit: '4kb', strict: true });

  // The one public door here: a name and password, counted per name and address as the console's sign-in is.
  router
    .route('/admin/sign-in')
    .post(json, async (req, res) => {
      const input = validate(signInBody, req.body ?? {});
      const checked = await checkSignIn({ ...deps, secondFactor: deps.approvals.secondFactor }, req, {
        username: input.username,
        password: input.password,
        code: input.code,
        actor: `cli:${input.username}`,
      });
      if (checked.kind === 'blocked') {
        throw new AppError('RATE_LIMITED', 'Too many failed sign-ins: try again later.', {
          details: { retryAfterSeconds: checked.waitSeconds },
        });
      }
      if (checked.kind === 'busy') {
        throw new AppError('DEPENDENCY_UNAVAILABLE', 'Busy checking other sign-ins: try again in a moment.', {
          details: { retryAfterSeconds: 1 },
        });
      }
      if (checked.kind === 'wrong') {
        throw new AppError(
          'UNAUTHENTICATED',
          'Wrong username or password, or the account is disabled or has not enrolled.',
        );
      }
      if (checked.kind === 'second-factor') {
        if (checked.waitSeconds !== undefined) {
          throw new AppError('RATE_LIMITED', checked.why, { details: { retryAfterSeconds: checked.waitSeconds } });
        }
        throw new AppError('UNAUTHENTICATED', checked.why);
      }
      const { user } = checked;
      const issued = await issuePersonalCredential(deps.db, {
        username: user.username,
        kind: 'SIGN_IN',
        label: `pnpm cli login from ${req.ip ?? 'unknown'}`.slice(0, 100),
        ttlMs: deps.cliSignInTtlMs,
      });
      await recordOperatorAction(deps.db, {
        actor: `cli:${user.username}`,
        action: 'credential.sign-in',
        reason: 'pnpm cli login',
        detail: { prefix: issued.prefix, expiresAt: issued.expiresAt.toISOString() },
      });
      sendJson(res, 200, {
        ...ok(200),
        token: issued.token,
        prefix: issued.prefix,
        expiresAt: issued.expiresAt.toISOString(),
        username: user.username,
        role: user.role.toLowerCase(),
      });
    })
    .all(methodNotAllowed);

  // A person's own enrollment (docs/operations.md, "People and roles"): public doors, as sign-in is. The
  // secret goes to whoever opened the enrollment, and only to them; it is worth nothing until a request naming
  // its fingerprint is approved by a second person.
  router
    .route('/admin/enrollments')
    .post(json, async (req, res) => {
      const input = validate(openEnrollmentBody, req.body ?? {});
      const address = clientKey(req);
      const waitSeconds = await deps.signIn.blockedFor(`enrollment:${input.username}`, address);
      if (waitSeconds > 0) {
        throw new AppError('RATE_LIMITED', 'Too many attempts from this address: try again later.', {
          details: { retryAfterSeconds: waitSeconds },
        });
      }
      await deps.signIn.failed(`enrollment:${input.username}`, address);
      const opened = await openOwnEnrollment(deps, { username: input.username });
      if (opened.kind === 'bad-username') {
        throw AppError.validation([
          { field: 'username', message: 'username is 1–64 lower-case letters, digits, . _ or -' },
        ]);
      }
      if (opened.kind === 'too-many') {
        throw new AppError('CONFLICT', 'This name has as many enrollments open as allowed: use one of them.');
      }
      sendJson(res, 201, {
        ...ok(201),
        username: input.username,
        secret: opened.secret,
        fingerprint: opened.fingerprint,
        expiresAt: opened.expiresAt.toISOString(),
      });
    })
    .all(methodNotAllowed);

  router
    .route('/admin/enrollments/standing')
    .post(json, async (req, res) => {
      const input = validate(enrollmentBody, req.body ?? {});
      const standing = await enrollmentStanding(deps, input.secret);
      if (standing.kind === 'unknown') throw new AppError('NOT_FOUND', 'No open enrollment has this secret.');
      sendJson(res, 200, {
        ...ok(200),
        ...(standing.kind === 'waiting'
          ? {
              state: 'waiting',
              username: standing.username,
              fingerprint: standing.fingerprint,
              expiresAt: standing.expiresAt.toISOString(),
            }
          : { state: 'approved', username: standing.user.username, role: standing.user.role.toLowerCase() }),
      });
    })
    .all(methodNotAllowed);

  router
    .route('/admin/enrollments/second-factor')
    .post(json, async (req, res) => {
      const input = validate(enrollmentBody, req.body ?? {});
      const offered = await offerSecondFactor({ ...deps, secondFactor: deps.approvals.secondFactor }, input.secret);
      if (offered.kind === 'unknown') throw new AppError('NOT_FOUND', 'No open enrollment has this secret.');
      if (offered.kind === 'waiting') {
        throw new AppError('CONFLICT', `Not approved yet: the request must name fingerprint ${offered.fingerprint}.`);
      }
      sendJson(res, 200, { ...ok(200), username: offered.username, seed: offered.seed, uri: offered.uri });
    })
    .all(methodNotAllowed);

  router
    .route('/admin/enrollments/finish')
    .post(json, async (req, res) => {
      const input = validate(finishEnrollmentBody, req.body ?? {});
      const finished = await finishEnrollment(
        { ...deps, secondFactor: deps.approvals.secondFactor },
        { secret: input.secret, password: input.password, repeated: input.password, code: input.code },
      );
      switch (finished.kind) {
        case 'not-ready':
          throw new AppError('CONFLICT', 'This enrollment is not approved, or is finished or expired.');
        case 'bad-password':
          throw AppError.validation([{ field: 'password', message: finished.problem }]);
        case 'bad-code':
          throw AppError.validation([
            { field: 'code', message: 'the code does not match the offered key: type the current one' },
          ]);
        case 'enrolled':
          sendJson(res, 200, {
            ...ok(200),
            username: finished.user.username,
            role: finished.user.role.toLowerCase(),
            recoveryCodes: finished.recoveryCodes,
            setupComplete: finished.setupComplete,
          });
      }
    })
    .all(methodNotAllowed);

  router
    .route('/admin/sign-out')
    .post(
      json,
      allowJson('read', async (_req, res, viewer) => {
        if (!viewer.credential) {
          throw new AppError('CONFLICT', 'Nothing to sign out of here: use the console’s Sign out button.');
        }
        await revokePersonalCredentialById(deps.db, viewer.credential.id);
        await recordOperatorAction(deps.db, {
          actor: `cli:${viewer.user.username}`,
          action: 'credential.sign-out',
          reason: 'signed out',
          detail: { prefix: viewer.credential.prefix, kind: viewer.credential.kind },
        });
        sendJson(res, 200, { ...ok(200), revoked: viewer.credential.prefix });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/whoami')
    .get(
      allowJson('read', (_req, res, viewer) => {
        sendJson(res, 200, {
          ...ok(200),
          username: viewer.user.username,
          role: viewer.user.role.toLowerCase(),
          via: viewer.via,
          ...(viewer.credential && {
            credential: {
              kind: viewer.credential.kind,
              prefix: viewer.credential.prefix,
              expiresAt: viewer.credential.expiresAt.toISOString(),
            },
          }),
        });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/users')
    .post(
      json,
      allowJson('request', async (req, res, viewer) => {
        const input = validate(addUserBody, req.body ?? {});
        const plan = await planUserAdd(deps, {
          username: input.username,
          role: input.role,
          fingerprint: input.fingerprint,
        });
        await requestPlanned(res, viewer, plan, input, input.username);
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/users/:username/role')
    .post(
      json,
      allowJson('request', async (req, res, viewer) => {
        const name = usernameOf(req);
        const input = validate(roleBody, req.body ?? {});
        const plan = await planRoleChange(deps, { username: name, role: input.role });
        await requestPlanned(res, viewer, plan, input, name);
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/users/:username/password-reset')
    .post(
      json,
      allowJson('request', async (req, res, viewer) => {
        const name = usernameOf(req);
        const input = validate(resetBody, req.body ?? {});
        const plan = await planPasswordReset(deps, { username: name, fingerprint: input.fingerprint });
        await requestPlanned(res, viewer, plan, input, name);
      }),
    )
    .all(methodNotAllowed);

  // Takes power away and moves no money: an approver does it alone, at once.
  router
    .route('/admin/users/:username/disable')
    .post(
      json,
      allowJson('approve', async (req, res, viewer) => {
        const name = usernameOf(req);
        const input = validate(whyBody, req.body ?? {});
        const outcome = await disableUser(deps, { username: name, by: apiPersonOf(viewer), reason: input.why });
        if (outcome.kind === 'no-user') throw new AppError('NOT_FOUND', `No console user ${name}.`);
        if (outcome.kind === 'last-approvers') {
          throw new AppError('CONFLICT', `Not disabled, nothing changed: ${outcome.why}.`);
        }
        sendJson(res, 200, {
          ...ok(200),
          user: { username: outcome.user.username, role: outcome.user.role.toLowerCase(), disabled: true },
        });
      }),
    )
    .all(methodNotAllowed);

  /**
   * Stores a planned change to a person as a request for another approver: 202 with the request. In setup an
   * approver's change runs at once on their code: answered as an approval is.
   */
  async function requestPlanned(
    res: Response,
    viewer: Viewer,
    plan: PlanPeopleChangeOutcome,
    input: { why: string; code?: string | undefined },
    name: string,
  ): Promise<void> {
    switch (plan.kind) {
      case 'planned': {
        const asked = await requestPeopleChange(deps, {
          planned: plan.planned,
          maker: apiPersonOf(viewer),
          reason: input.why,
          ...(input.code !== undefined && { secondFactorCode: input.code }),
        });
        if (asked.kind === 'not-allowed') throw new AppError('FORBIDDEN', `Not allowed: ${asked.why}.`);
        if (asked.kind === 'set-up') {
          sendDecision(res, asked.outcome);
          return;
        }
        sendJson(res, 202, { ...ok(202), approval: approvalJson(asked.request) });
        return;
      }
      case 'bad-fingerprint':
        throw AppError.validation([
          { field: 'fingerprint', message: 'a fingerprint is eight letters and digits, as XXXX-XXXX' },
        ]);
      case 'no-enrollment':
        throw new AppError(
          'CONFLICT',
          `${name} has no open enrollment with fingerprint ${plan.fingerprint}: they open one (/console/enroll or pnpm cli enroll) and read you its fingerprint; nothing changed.`,
        );
      case 'bad-username':
        throw AppError.validation([
          { field: 'username', message: 'username is 1–64 lower-case letters, digits, . _ or -' },
        ]);
      case 'taken':
        throw new AppError('CONFLICT', `A console user ${name} exists already; nothing changed.`);
      case 'no-user':
        throw new AppError('NOT_FOUND', `No console user ${name}.`);
      case 'disabled':
        throw new AppError('CONFLICT', `${name} is disabled: reset their password to enable them; nothing changed.`);
      case 'same-role':
        throw new AppError('CONFLICT', `${name} is ${plan.role.toLowerCase()} already; nothing changed.`);
    }
  }

  return router;
}

function ok(statusCode: number) {
  return { error: false, status_code: statusCode, status: 'OK' } as const;
}

/** The person a path names; a name no person can have is no person (404). */
function usernameOf(req: Request): string {
  const name = String(req.params.username);
  if (!CONSOLE_USERNAME_PATTERN.test(name)) throw new AppError('NOT_FOUND', 'No such console user.');
  return name;
}
