import { may } from '@payout/domain';
import type { LineCandidate, StatementBreakRow, WaitingStatementRun } from '@payout/db';
import { breakSaysMoneyIsMissing } from '@payout/use-cases';
import type { Viewer } from '../console-session.js';
import { ist, rupees } from './format.js';
import { Csrf, ListPage, StatusBadge, type Column } from './layout.js';

/** A break as the page shows it: the break, its decision, and the payouts its bank line may be. */
export type BreakWithCandidates = StatementBreakRow & { candidates: LineCandidate[] };

export interface StatementBreaksPageProps {
  viewer: Viewer;
  rows: BreakWithCandidates[];
  /** Runs whose breaks wait for a second person's approval: listed once it is given. */
  waiting: WaitingStatementRun[];
  pageNumber: number;
  pageSize: number;
  hasNextPage: boolean;
  includeDecided: boolean;
}

/** Where a break's actions post: its run and its position in the run. */
export function breakPath(row: Pick<StatementBreakRow, 'run' | 'position'>, action: string): string {
  return `/console/statement-breaks/${row.run.id}/${row.position}/${action}`;
}

/** The page's own address for page `n`, keeping the filter. */
function pageLink(n: number, includeDecided: boolean): string {
  const query = [...(includeDecided ? ['decided=1'] : []), ...(n === 1 ? [] : [`page=${n}`])];
  return `/console/lists/statement-breaks${query.length ? `?${query.join('&')}` : ''}`;
}

/**
 * The breaks statement runs left (docs/reconciliation.md, "The breaks page"): each bank line beside the
 * payouts it may be, with "match", "not ours" and "needs the bank" in plain forms that work without JavaScript.
 */
export function StatementBreaksPage(props: StatementBreaksPageProps) {
  const { pageNumber, includeDecided } = props;
  return (
    <ListPage
      title="Statement breaks"
      viewer={props.viewer}
      intro={
        <>
          <p>
            What statement runs (<code>pnpm cli recon statement</code>) left for a person, newest run first: the bank
            and our books disagree, or the statement says what cannot be, and nothing was applied
            (docs/reconciliation.md). Match a line to a payout, or say it is not ours, or that the bank was asked. Page{' '}
            {pageNumber}, {props.pageSize} breaks a page.
          </p>
          {props.waiting.length > 0 && <WaitingRuns runs={props.waiting} />}
        </>
      }
      filters={
        <form method="get" class="filters">
          <label>
            <input type="checkbox" name="decided" value="1" checked={includeDecided} /> Show decided breaks too
          </label>
          <button type="submit">List</button>
        </form>
      }
      columns={breakColumns(props.viewer)}
      rows={props.rows}
      empty={pageNumber === 1 ? 'No statement run has left a break.' : `Page ${pageNumber} is past the last break.`}
      pages={
        <nav aria-label="Pages of statement breaks">
          {pageNumber > 1 && (
            <a href={pageLink(pageNumber - 1, includeDecided)} rel="prev">
              Previous page
            </a>
          )}{' '}
          {props.hasNextPage && (
            <a href={pageLink(pageNumber + 1, includeDecided)} rel="next">
              Next page
            </a>
          )}
        </nav>
      }
    />
  );
}

/**
 * The runs waiting for a second person: nothing they found counts until their request is approved — their
 * breaks are not listed, and the earlier breaks they answer stay open (docs/reconciliation.md, "When a run
 * takes effect").
 */
function WaitingRuns({ runs }: { runs: WaitingStatementRun[] }) {
  return (
    <section aria-labelledby="waiting-runs">
      <h2 id="waiting-runs">Runs waiting for a second person</h2>
      <p>
        What these runs found counts once their request is approved: their breaks are listed here, and the earlier
        breaks they answer closed, only then.
      </p>
      <ul>
        {runs.map((run) => (
          <li>
            run {String(run.id)}, {run.fileName} ({run.operator}, {ist(run.startedAt)}): {run.breaks} break(s)
            {run.closes > 0 && `, closes ${run.closes} earlier break(s)`} —{' '}
            <a href={`/console/approvals/${run.approvalRequestId}`}>approval {String(run.approvalRequestId)}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function breakColumns(viewer: Viewer): Column<BreakWithCandidates>[] {
  return [
    {
      header: 'Break',
      cell: ({ run, item }) => (
        <>
          {item.kind}
          <br />
          <span class="why" title={`run ${run.id}, ${ist(run.startedAt)}`}>
            run {String(run.id)}, {run.fileName}
          </span>
        </>
      ),
    },
    {
      header: 'Reference',
      cell: ({ item }) =>
        item.books ? <a href={`/console/payouts/${item.reference}`}>{item.reference}</a> : item.reference,
    },
    {
      header: 'Bank says',
      cell: ({ item }) =>
        item.bank
          ? `line ${item.bank.line}: ${item.bank.type} ₹ ${item.bank.amount}, UTR ${item.bank.utr}, ${item.bank.value_date}`
          : 'nothing',
    },
    {
      header: 'Books say',
      cell: ({ item }) =>
        item.books
          ? `${item.books.state} ₹ ${item.books.amount}${item.books.utr ? `, UTR ${item.books.utr}` : ''}`
          : 'nothing',
    },
    { header: 'Payouts it may be', cell: (row) => <Candidates row={row} viewer={viewer} /> },
    { header: 'Decision', cell: (row) => <Decision row={row} viewer={viewer} /> },
  ];
}

/** Why the viewer may not decide, or undefined when they may. */
function refusalFor(viewer: Viewer): string | undefined {
  return may(viewer.user.role, 'act') ? undefined : `Your role (${viewer.user.role.toLowerCase()}) may not do this.`;
}

/** The id of an open break's decision form: the candidates' "Match" buttons belong to it (form attribute). */
const formIdOf = (row: StatementBreakRow) => `decide-${row.run.id}-${row.position}`;

/** Each payout the line may be; on an open break, a "Match" button that sends the break's form with its Ack_no. */
function Candidates({ row, viewer }: { row: BreakWithCandidates; viewer: Viewer }) {
  if (row.candidates.length === 0) return <span class="why">{row.item.bank ? 'none found' : '—'}</span>;
  const open = !row.decision || row.decision.decision === 'needs_bank';
  return (
    <ul class="candidates">
      {row.candidates.map((c) => (
        <li>
          <a href={`/console/payouts/${c.ackNo}`}>{c.ackNo}</a> {rupees(c.amountPaise)}, {c.date}, {c.beneficiaryName}{' '}
          <StatusBadge status={c.state} />{' '}
          {open && (
            <button
              type="submit"
              form={formIdOf(row)}
              formAction={breakPath(row, 'match')}
              name="ackNo"
              value={c.ackNo}
              aria-label={`Match ${c.ackNo}`}
              disabled={refusalFor(viewer) !== undefined}
            >
              Match
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * A decided break says what was decided; an open one carries one form: a note (required, for the audit log)
 * and a button per decision, each posting to its own action (formaction; the candidates' "Match" buttons join
 * it by its id), so no JavaScript is needed.
 */
function Decision({ row, viewer }: { row: BreakWithCandidates; viewer: Viewer }) {
  const { decision } = row;
  const final = decision && decision.decision !== 'needs_bank';
  const said = decision && (
    <p>
      <strong>{decision.decision.replace(/_/g, ' ')}</strong>
      {decision.payoutAckNo && (
        <>
          {' '}
          to <a href={`/console/payouts/${decision.payoutAckNo}`}>{decision.payoutAckNo}</a>
        </>
      )}{' '}
      by {decision.decidedBy}, {ist(decision.decidedAt)}: {decision.note}
      {decision.approvalRequestId !== null && (
        <>
          {' '}
          (
          <a href={`/console/approvals/${decision.approvalRequestId}`}>approval {String(decision.approvalRequestId)}</a>
          )
        </>
      )}
    </p>
  );
  if (final) return said;
  const refused = refusalFor(viewer);
  const id = `note-${row.run.id}-${row.position}`;
  return (
    <>
      {said}
      <form id={formIdOf(row)} method="post" action={breakPath(row, 'needs-bank')} class="action">
        <Csrf viewer={viewer} />
        <label for={id}>Note (written to the audit log)</label>
        <textarea id={id} name="why" required maxLength={400} rows={2} disabled={refused !== undefined} />
        <div class="row">
          <button type="submit" formAction={breakPath(row, 'not-ours')} disabled={refused !== undefined}>
            Not ours
          </button>
          <button type="submit" disabled={refused !== undefined}>
            Needs the bank
          </button>
        </div>
        {breakSaysMoneyIsMissing(row.item.kind) && (
          <span class="why">Money is missing here: either decision is asked of another approver.</span>
        )}
        {refused && <span class="why">{refused}</span>}
      </form>
    </>
  );
}
