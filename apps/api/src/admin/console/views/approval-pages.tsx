import type { ComponentChildren } from 'preact';
import type { ApprovalRequestView } from '@payout/db';
import type { OverrideRecheck } from '@payout/use-cases';
import { approvalStateAt, may } from '@payout/domain';
import type { Viewer } from '../console-session.js';
import { BulkPreview } from './bulk-preview.js';
import { ist } from './format.js';
import { Csrf, Page, RowsTable, Section, StatusBadge, type Column } from './layout.js';

const columns = (now: Date): Column<ApprovalRequestView>[] => [
  { header: 'Request', cell: (r) => <a href={`/console/approvals/${r.id}`}>#{r.id.toString()}</a> },
  { header: 'State', cell: (r) => <StatusBadge status={approvalStateAt(r, now)} /> },
  { header: 'What', cell: (r) => r.summary },
  { header: 'Asked by', cell: (r) => r.maker },
  { header: 'Asked', cell: (r) => ist(r.requestedAt) },
  {
    header: 'Decided',
    cell: (r) => (r.decidedBy ? `${r.decidedBy}, ${ist(r.decidedAt!)}` : `expires ${ist(r.expiresAt)}`),
  },
];

/** The requests waiting for a second person, and the latest decided ones. */
export function ApprovalListPage(props: {
  viewer: Viewer;
  open: ApprovalRequestView[];
  recent: ApprovalRequestView[];
}) {
  const now = new Date();
  return (
    <Page title="Approvals" viewer={props.viewer}>
      <p>
        Money actions wait here for a second person: a credit, a manual resolution, a discrepancy's ledger resolution, a
        statement's settlements and reversals, a new merchant token, an operator's bulk batch. Approvers approve or
        reject other people's requests; a request expires after a day.
      </p>
      <Section id="open" title="Waiting for a decision">
        <RowsTable caption="Open requests" columns={columns(now)} rows={props.open} empty="No request is waiting." />
      </Section>
      <Section id="recent" title="Recently decided">
        <RowsTable caption="Recent requests" columns={columns(now)} rows={props.recent} empty="Nothing decided yet." />
      </Section>
    </Page>
  );
}

/** One request: exactly what will happen, who asked and why, and the decisions this viewer may take. */
export function ApprovalPage(props: {
  viewer: Viewer;
  request: ApprovalRequestView;
  selfApproval: boolean;
  /** An open override resolution: the rail's answer when the maker asked and now. */
  recheck?: OverrideRecheck;
}) {
  const { viewer, request } = props;
  const state = approvalStateAt(request, new Date());
  const own = request.maker === viewer.user.username;
  const mayDecide = state === 'REQUESTED' && may(viewer.user.role, 'approve') && (!own || props.selfApproval);
  const { summary: _summary, ...details } = request.preview;
  return (
    <Page title={`Request #${request.id} · ${request.action}`} viewer={viewer}>
      <p class="explain">
        <StatusBadge status={state} /> {request.summary}
      </p>
      <dl class="facts">
        <dt>Asked by</dt>
        <dd>
          {request.maker}, {ist(request.requestedAt)}: “{request.makerReason}”
        </dd>
        <dt>{state === 'REQUESTED' ? 'Expires' : 'Decided'}</dt>
        <dd>
          {request.decidedBy
            ? `${request.decidedBy}, ${ist(request.decidedAt!)}${request.decisionNote ? `: “${request.decisionNote}”` : ''}`
            : ist(request.expiresAt)}
        </dd>
        {request.outcome && (
          <>
            <dt>Outcome</dt>
            <dd>
              <code>{JSON.stringify(request.outcome)}</code>
            </dd>
          </>
        )}
      </dl>
      <Section id="what" title="What will happen">
        {request.action === 'bulk.submit' ? <BulkPreview preview={details} /> : <Details value={details} />}
      </Section>
      {props.recheck && (
        <Section id="rail" title="The rail, asked again">
          <dl class="facts">
            <dt>When it was asked</dt>
            <dd>{props.recheck.whenAsked}</dd>
            <dt>Now</dt>
            <dd>{props.recheck.now}</dd>
          </dl>
          {props.recheck.contradicted && (
            <p class="why">Approving is refused and nothing changes: {props.recheck.contradicted}.</p>
          )}
        </Section>
      )}
      {mayDecide && (
        <Section id="decide" title="Decide">
          <DecisionForm viewer={viewer} request={request} decision="approve" label="Approve and run it" />
          <DecisionForm viewer={viewer} request={request} decision="reject" label="Reject" />
        </Section>
      )}
      {state === 'REQUESTED' && own && (
        <Section id="withdraw" title="Withdraw">
          <p>You asked for this: another approver decides it. You may cancel it.</p>
          <DecisionForm viewer={viewer} request={request} decision="cancel" label="Cancel the request" />
        </Section>
      )}
      {state === 'REQUESTED' && !own && !mayDecide && <p>Waiting for an approver other than {request.maker}.</p>}
    </Page>
  );
}

function DecisionForm(props: {
  viewer: Viewer;
  request: ApprovalRequestView;
  decision: 'approve' | 'reject' | 'cancel';
  label: string;
}) {
  const id = `note-${props.decision}`;
  return (
    <form method="post" action={`/console/approvals/${props.request.id}/${props.decision}`} class="stack">
      <Csrf viewer={props.viewer} />
      <label for={id}>Note (written to the audit log)</label>
      <input id={id} name="note" maxLength={400} required={props.decision === 'reject'} />
      {props.decision === 'approve' && (
        <>
          <label for="approve-code">Code from your authenticator app (or a recovery code)</label>
          <input
            id="approve-code"
            name="code"
            required
            autocomplete="one-time-code"
            inputMode="numeric"
            maxLength={20}
            spellcheck={false}
          />
        </>
      )}
      <div class="row">
        <button type="submit">{props.label}</button>
      </div>
    </form>
  );
}

/** A preview's fields as a definition list; lists of records (payouts, wallets) as tables. */
function Details(props: { value: Record<string, unknown> }): ComponentChildren {
  return (
    <dl class="facts">
      {Object.entries(props.value).map(([key, value]) => (
        <>
          <dt>{key}</dt>
          <dd>
            {Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null) ? (
              <RowsTable
                caption={key}
                rows={value as Record<string, unknown>[]}
                empty="none"
                columns={Object.keys((value[0] as Record<string, unknown> | undefined) ?? {}).map((k) => ({
                  header: k,
                  cell: (row: Record<string, unknown>) => text(row[k]),
                }))}
              />
            ) : (
              text(value)
            )}
          </dd>
        </>
      ))}
    </dl>
  );
}

function text(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return value.toString();
    default:
      return value === undefined || value === null ? '' : JSON.stringify(value);
  }
}
