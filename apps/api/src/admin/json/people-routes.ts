import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  issuePersonalCredential,
  recordOperatorAction,
  revokePersonalCredentialById,
  type PrismaClient,
} from '@payout/db';
import { AppError, CONSOLE_ROLES, CONSOLE_USERNAME_PATTERN } from '@payout/domain';
import { validate } from '@payout/contract';
import {
  approvalJson,
  disableUser,
  planPasswordReset,
  planRoleChange,
  planUserAdd,
  requestApproval,
  type ApprovalDeps,
  type PlanPeopleChangeOutcome,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';
import type { Viewer } from '../console/console-session.js';
import { checkPassword } from '../console/password-check.js';
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

const signInBody = z.strictObject({
  username,
  password: z.string({ error: 'password is required' }).min(1, { error: 'password is required' }).max(200),
});
const addUserBody = z.strictObject({ username, role, why });
const roleBody = z.strictObject({ role, why });
const whyBody = z.strictObject({ why });

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
      const checked = await checkPassword(deps, req, input.username, input.password);
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
        throw new AppError('UNAUTHENTICATED', 'Wrong username or password, or the account is disabled.');
      }
      const { user } = checked;
      if (user.mustChangePassword) {
        throw new AppError(
          'FORBIDDEN',
          'Your password was made for you: choose your own at /console/login before you sign in here.',
        );
      }
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
        const plan = await planUserAdd(deps, { username: input.username, role: input.role });
        await requestPlanned(res, viewer, plan, input.why, input.username);
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
        await requestPlanned(res, viewer, plan, input.why, name);
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/users/:username/password-reset')
    .post(
      json,
      allowJson('request', async (req, res, viewer) => {
        const name = usernameOf(req);
        const input = validate(whyBody, req.body ?? {});
        await requestPlanned(res, viewer, await planPasswordReset(deps, { username: name }), input.why, name);
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
        sendJson(res, 200, {
          ...ok(200),
          user: { username: outcome.user.username, role: outcome.user.role.toLowerCase(), disabled: true },
        });
      }),
    )
    .all(methodNotAllowed);

  /** Stores a planned change to a person as a request for another approver: 202 with the request. */
  async function requestPlanned(
    res: Response,
    viewer: Viewer,
    plan: PlanPeopleChangeOutcome,
    reason: string,
    name: string,
  ): Promise<void> {
    switch (plan.kind) {
      case 'planned': {
        const asked = await requestApproval(deps, { planned: plan.planned, maker: apiPersonOf(viewer), reason });
        if (asked.kind === 'not-allowed') throw new AppError('FORBIDDEN', `Not allowed: ${asked.why}.`);
        sendJson(res, 202, { ...ok(202), approval: approvalJson(asked.request) });
        return;
      }
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
