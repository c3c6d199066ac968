import { Router, type Request, type Response } from 'express';
import { listMerchantAudit, listMerchantTeam, merchantUserActor, type MerchantTeamMember } from '@payout/db';
import { ASSIGNABLE_MERCHANT_ROLES, merchantMay } from '@payout/domain';
import {
  addTeamMember,
  changeTeamMemberRole,
  reEnrollTeamMember,
  setTeamMemberDisabled,
  type ReEnrollOutcome,
  type AddTeamMemberOutcome,
  type TeamChangeActor,
} from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { formField } from '../../http/cookies.js';
import { permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';

/*
 * The team page and the merchant's audit (docs/dashboard.md, "The team"): everyone reads who is on the team;
 * the owner and admins (`team`) add people bound to their own enrollments, change roles, disable and enable;
 * every change is one transaction with its audit line (packages/use-cases/src/merchant-people/merchant-team.ts).
 */

export const TEAM_PATH = '/dashboard/team';
export const AUDIT_PATH = '/dashboard/audit';
const AUDIT_PAGE_SIZE = 50;

const DONE: Record<string, string> = {
  added: 'Added. They can now finish their enrollment on the device they started it on.',
  role: 'Role changed. They were signed out everywhere.',
  disabled: 'Disabled. They were signed out everywhere.',
  enabled: 'Enabled again.',
  reenrolled: 'Bound to their new enrollment: they finish it on the device they started it on. They were signed out.',
};

export function dashboardTeamRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });

  router.get(
    TEAM_PATH,
    permit('read', async (req, res, viewer) => {
      const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
      await showTeam(res, viewer, 200, done === undefined ? {} : { done });
    }),
  );

  router.post(
    `${TEAM_PATH}/add`,
    permit('team', async (req, res, viewer) => {
      const input = {
        email: formField(req, 'email') ?? '',
        role: formField(req, 'role') ?? '',
        fingerprint: formField(req, 'fingerprint') ?? '',
      };
      const added = await addTeamMember(deps, actorOf(viewer), input);
      if (added.kind === 'added') {
        res.redirect(303, `${TEAM_PATH}?done=added`);
        return;
      }
      await showTeam(res, viewer, added.kind === 'taken' ? 409 : 400, { error: addRefusal(added), typed: input });
    }),
  );

  router.post(
    `${TEAM_PATH}/role`,
    permit('team', async (req, res, viewer) => {
      const changed = await changeTeamMemberRole(deps, actorOf(viewer), {
        userId: userIdOf(req),
        role: formField(req, 'role') ?? '',
      });
      await answerChange(res, viewer, changed, 'role');
    }),
  );

  for (const [path, disabled] of [
    [`${TEAM_PATH}/disable`, true],
    [`${TEAM_PATH}/enable`, false],
  ] as const) {
    router.post(
      path,
      permit('team', async (req, res, viewer) => {
        const changed = await setTeamMemberDisabled(deps, actorOf(viewer), { userId: userIdOf(req), disabled });
        await answerChange(res, viewer, changed, disabled ? 'disabled' : 'enabled');
      }),
    );
  }

  router.post(
    `${TEAM_PATH}/re-enroll`,
    permit('team', async (req, res, viewer) => {
      const changed = await reEnrollTeamMember(deps, actorOf(viewer), {
        userId: userIdOf(req),
        fingerprint: formField(req, 'fingerprint') ?? '',
      });
      await answerChange(res, viewer, changed, 'reenrolled');
    }),
  );

  router.get(
    AUDIT_PATH,
    permit('team', async (req, res, viewer) => {
      const before =
        typeof req.query.before === 'string' && /^[1-9][0-9]{0,18}$/.test(req.query.before)
          ? BigInt(req.query.before)
          : undefined;
      const events = await listMerchantAudit(deps.db, viewer.merchant.id, {
        limit: AUDIT_PAGE_SIZE,
        ...(before !== undefined && { before }),
      });
      renderDashboardPage(res, 200, <AuditPage viewer={viewer} events={events} pageSize={AUDIT_PAGE_SIZE} />);
    }),
  );

  async function showTeam(
    res: Response,
    viewer: DashboardViewer,
    status: number,
    shown: { done?: string; error?: string; typed?: { email: string; role: string; fingerprint: string } },
  ) {
    const team = await listMerchantTeam(deps.db, viewer.merchant.id);
    renderDashboardPage(res, status, <TeamPage viewer={viewer} team={team} {...shown} />);
  }

  async function answerChange(res: Response, viewer: DashboardViewer, changed: ReEnrollOutcome, done: string) {
    if (changed.kind === 'changed' || changed.kind === 'unchanged') {
      res.redirect(303, `${TEAM_PATH}?done=${done}`);
      return;
    }
    const status =
      changed.kind === 'unknown'
        ? 404
        : changed.kind === 'bad-fingerprint' || changed.kind === 'no-enrollment'
          ? 400
          : 403;
    await showTeam(res, viewer, status, { error: changeRefusal(changed) });
  }
  return router;
}

function actorOf(viewer: DashboardViewer): TeamChangeActor {
  return { merchantId: viewer.merchant.id, userId: viewer.user.id, actor: merchantUserActor(viewer.user) };
}

function userIdOf(req: Request): number {
  const raw = formField(req, 'userId') ?? '';
  return /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : 0;
}

function addRefusal(outcome: Exclude<AddTeamMemberOutcome, { kind: 'added' }>): string {
  switch (outcome.kind) {
    case 'bad-email':
      return 'Enter their e-mail address.';
    case 'bad-role':
      return 'Choose one of the roles offered.';
    case 'bad-fingerprint':
      return 'A fingerprint is eight letters and digits, as their enrollment page shows it (e.g. K7Q4-2MXP).';
    case 'no-enrollment':
      return 'No open enrollment of that e-mail has that fingerprint: ask them to read it again, or to start one.';
    case 'taken':
      return 'That e-mail already signs in to a dashboard: ask them to use another.';
  }
}

function changeRefusal(outcome: Exclude<ReEnrollOutcome, { kind: 'changed' | 'unchanged' }>): string {
  switch (outcome.kind) {
    case 'bad-fingerprint':
      return 'A fingerprint is eight letters and digits, as their enrollment page shows it (e.g. K7Q4-2MXP).';
    case 'no-enrollment':
      return 'No open enrollment of their e-mail has that fingerprint: ask them to read it again, or to start one.';
    case 'unknown':
      return 'There is no such person on your team.';
    case 'owner':
      return 'The owner is changed only through your payout provider.';
    case 'self':
      return 'You cannot change or disable yourself: ask another admin or the owner.';
    case 'bad-role':
      return 'Choose one of the roles offered.';
  }
}

function roleName(role: string): string {
  return role.toLowerCase();
}

function TeamPage(props: {
  viewer: DashboardViewer;
  team: MerchantTeamMember[];
  done?: string;
  error?: string;
  typed?: { email: string; role: string; fingerprint: string };
}) {
  const { viewer } = props;
  const manages = merchantMay(viewer.user.role, 'team');
  return (
    <DashboardPage title="Team" viewer={viewer}>
      {props.done && (
        <p class="message" role="status">
          {props.done}
        </p>
      )}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <div class="table-wrap">
        <table>
          <caption>Who signs in to this dashboard</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Enrolled</th>
              <th scope="col">Disabled</th>
              <th scope="col">Added by</th>
              <th scope="col">Added</th>
              {manages && <th scope="col">Change</th>}
            </tr>
          </thead>
          <tbody>
            {props.team.map((member) => (
              <tr>
                <td>{member.email}</td>
                <td>{roleName(member.role)}</td>
                <td>{member.enrolled ? 'yes' : 'not yet'}</td>
                <td>{member.disabledAt ? `since ${ist(member.disabledAt)}` : 'no'}</td>
                <td>{member.addedBy}</td>
                <td>{ist(member.createdAt)}</td>
                {manages && (
                  <td>
                    <MemberActions viewer={viewer} member={member} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {manages && <AddForm viewer={viewer} typed={props.typed} />}
    </DashboardPage>
  );
}

function MemberActions(props: { viewer: DashboardViewer; member: MerchantTeamMember }) {
  const { viewer, member } = props;
  if (member.role === 'OWNER') return <span class="hint">Changed through your payout provider</span>;
  if (member.id === viewer.user.id) return <span class="hint">You</span>;
  const label = `for ${member.email}`;
  return (
    <div class="row">
      <form method="post" action={`${TEAM_PATH}/role`} class="row">
        <DashboardCsrf viewer={viewer} />
        <input type="hidden" name="userId" value={String(member.id)} />
        <label for={`role-${member.id}`} class="hint">
          Role
        </label>
        <select id={`role-${member.id}`} name="role" aria-label={`Role ${label}`}>
          {ASSIGNABLE_MERCHANT_ROLES.map((role) => (
            <option value={role} selected={role === member.role}>
              {roleName(role)}
            </option>
          ))}
        </select>
        <button type="submit" aria-label={`Change role ${label}`}>
          Change role
        </button>
      </form>
      <form method="post" action={`${TEAM_PATH}/${member.disabledAt ? 'enable' : 'disable'}`}>
        <DashboardCsrf viewer={viewer} />
        <input type="hidden" name="userId" value={String(member.id)} />
        <button type="submit" aria-label={`${member.disabledAt ? 'Enable' : 'Disable'} ${member.email}`}>
          {member.disabledAt ? 'Enable' : 'Disable'}
        </button>
      </form>
      <form method="post" action={`${TEAM_PATH}/re-enroll`} class="row">
        <DashboardCsrf viewer={viewer} />
        <input type="hidden" name="userId" value={String(member.id)} />
        <label for={`reenroll-${member.id}`} class="hint">
          New fingerprint
        </label>
        <input
          id={`reenroll-${member.id}`}
          name="fingerprint"
          required
          maxLength={12}
          size={10}
          autocomplete="off"
          aria-label={`New enrollment fingerprint ${label}`}
        />
        <button type="submit" aria-label={`Enroll ${member.email} again`}>
          Enroll again
        </button>
      </form>
    </div>
  );
}

function AddForm(props: {
  viewer: DashboardViewer;
  typed?: { email: string; role: string; fingerprint: string } | undefined;
}) {
  return (
    <section aria-labelledby="add-person">
      <h2 id="add-person">Add a person</h2>
      <p class="hint">
        They start their enrollment at /dashboard/enroll on their own device and read you the fingerprint it shows.
        Adding them binds their account to that enrollment: only that device can set their password.
      </p>
      <form method="post" action={`${TEAM_PATH}/add`} class="stack narrow">
        <DashboardCsrf viewer={props.viewer} />
        <label for="add-email">E-mail</label>
        <input id="add-email" name="email" type="email" required maxLength={254} value={props.typed?.email ?? ''} />
        <label for="add-role">Role</label>
        <select id="add-role" name="role">
          {ASSIGNABLE_MERCHANT_ROLES.map((role) => (
            <option value={role} selected={role === (props.typed?.role ?? 'VIEWER')}>
              {roleName(role)}
            </option>
          ))}
        </select>
        <label for="add-fingerprint">The fingerprint they read to you</label>
        <input
          id="add-fingerprint"
          name="fingerprint"
          required
          maxLength={12}
          autocomplete="off"
          value={props.typed?.fingerprint ?? ''}
        />
        <button type="submit">Add</button>
      </form>
    </section>
  );
}

function AuditPage(props: {
  viewer: DashboardViewer;
  events: Awaited<ReturnType<typeof listMerchantAudit>>;
  pageSize: number;
}) {
  const last = props.events.at(-1);
  return (
    <DashboardPage title="Audit" viewer={props.viewer}>
      {props.events.length === 0 ? (
        <p class="empty">Nothing recorded here yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Changes to your team and access, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {props.events.map((event) => (
                <tr>
                  <td>{ist(event.createdAt)}</td>
                  <td>{event.actor}</td>
                  <td>{event.action}</td>
                  <td>
                    <code>{JSON.stringify(event.detail)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {last && props.events.length === props.pageSize && (
        <p>
          <a href={`${AUDIT_PATH}?before=${last.id}`}>Older</a>
        </p>
      )}
    </DashboardPage>
  );
}
