import { type Request, type Response } from 'express';
import type { ComponentChildren } from 'preact';
import {
  findMerchantByMid,
  findPayoutStoryByAckNo,
  listDiscrepancies,
  listFailedWebhookDeliveries,
  listOperatorActions,
  listPayouts,
  searchPayouts,
  type Merchant,
  type PayoutListRow,
  type PayoutSearch,
} from '@payout/db';
import { ACK_NO_PATTERN, isMid, isTransactionId, type PayoutState } from '@payout/domain';
import { findPayoutJobs, type PayoutJobView } from '@payout/queue';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { viewerOf, type Viewer } from './console-session.js';
import { payoutTimeline } from './payout-timeline.js';
import { renderPage } from './render.js';
import { AuditTable } from './views/audit-table.js';
import { ist, rupees } from './views/format.js';
import { ListPage, MessagePage, Page, type ListPageProps } from './views/layout.js';
import { payoutColumns } from './views/payout-columns.js';
import { PayoutPage } from './views/payout-page.js';
import { SearchPage } from './views/search-page.js';

const LIST_LIMIT = 200;

/** The payouts that wait in one state for someone: each list shows them with what support does about them. */
const PAYOUTS_WAITING_IN_A_STATE: {
  path: string;
  state: PayoutState;
  title: string;
  intro: ComponentChildren;
  empty: string;
}[] = [
  {
    path: '/console/lists/manual-review',
    state: 'MANUAL_REVIEW',
    title: 'Manual review',
    intro: <p>Payouts the worker stopped asking the rail about. Open one, check with the bank, then resolve it.</p>,
    empty: 'No payout is waiting for manual review.',
  },
  {
    path: '/console/lists/queued',
    state: 'QUEUED',
    title: 'Queued for balance',
    intro: (
      <p>
        Payouts of merchants who queue when their balance is low, waiting for a credit in arrival order. Each credit
        releases what fits; one that waits past its merchant's queue window fails (docs/api.md, "Queue if low balance").
      </p>
    ),
    empty: 'No payout is waiting for balance.',
  },
];

/** Finding payouts: the search box, a payout's page, and the lists support works through. */
export function findRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();

  router.get('/console', async (req, res) => {
    const viewer = signedIn(res);
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    if (!query) {
      renderPage(res, 200, <SearchPage viewer={viewer} />);
      return;
    }
    const keys = searchKeys(query);
    if (!keys) {
      renderPage(
        res,
        400,
        <SearchPage
          viewer={viewer}
          query={query}
          problem="Type a MID and a TransactionID (digits) separated by a space, an Ack_no, or a UTR."
        />,
      );
      return;
    }
    let results: PayoutListRow[] = [];
    for (const key of keys) {
      results = await searchPayouts(deps.db, key);
      if (results.length) break;
    }
    if (results.length === 1) {
      res.redirect(303, `/console/payouts/${results[0]!.ackNo}`);
      return;
    }
    renderPage(res, results.length ? 200 : 404, <SearchPage viewer={viewer} query={query} results={results} />);
  });

  router.get('/console/payouts/:ackNo', async (req, res) => {
    const viewer = signedIn(res);
    const ackNo = req.params.ackNo;
    const story = ACK_NO_PATTERN.test(ackNo) ? await findPayoutStoryByAckNo(deps.db, ackNo) : null;
    if (!story) {
      notFound(res, viewer, `No payout has the Ack_no ${ackNo}.`);
      return;
    }
    let jobs: PayoutJobView[] = [];
    let jobsNote: string | undefined;
    try {
      jobs = await findPayoutJobs(deps.payoutQueue, story.payout.id, story.payout.inquiryAttempts);
    } catch (error) {
      jobsNote = `Queue jobs are not shown: the queue did not answer (${(error as Error).message}).`;
    }
    const actions = await listOperatorActions(deps.db, { payoutId: story.payout.id, limit: 50 });
    const timeline = payoutTimeline(story, jobs, actions);
    renderPage(
      res,
      200,
      <PayoutPage viewer={viewer} story={story} timeline={timeline} actions={actions} jobsNote={jobsNote} />,
    );
  });

  router.get('/console/lists/pending', async (req, res) => {
    const minutes = wholeNumber(req.query.minutes, 30);
    renderListPage(res, {
      title: `Pending longer than ${minutes} min`,
      filters: (
        <form method="get" class="filters">
          <label>
            Pending longer than <input type="number" name="minutes" min="0" max="100000" value={String(minutes)} /> min
          </label>
          <button type="submit">List</button>
        </form>
      ),
      columns: payoutColumns,
      rows: await listPayouts(deps.db, { pendingForMinutes: minutes, limit: LIST_LIMIT }),
      empty: 'No payout has been pending that long.',
    });
  });

  for (const list of PAYOUTS_WAITING_IN_A_STATE) {
    router.get(list.path, async (_req, res) => {
      renderListPage(res, {
        title: list.title,
        intro: list.intro,
        columns: payoutColumns,
        rows: await listPayouts(deps.db, { state: list.state, limit: LIST_LIMIT }),
        empty: list.empty,
      });
    });
  }

  router.get('/console/lists/failed-webhooks', async (_req, res) => {
    renderListPage(res, {
      title: 'Failed webhook deliveries',
      intro: (
        <p>
          Deliveries held because their merchant's endpoint was disabled after failing a whole retry window (enable it
          with <code>pnpm cli webhook enable --mid …</code> to resume them), and deliveries given up because the
          merchant has no endpoint (replay one from its payout's page).
        </p>
      ),
      columns: [
        { header: 'Status', cell: (d) => (d.status === 'HELD' ? 'held: endpoint disabled' : 'given up') },
        { header: 'Payout', cell: (d) => <a href={`/console/payouts/${d.ackNo}`}>{d.ackNo}</a> },
        { header: 'MID', cell: (d) => <a href={`/console/merchants/${encodeURIComponent(d.mid)}`}>{d.mid}</a> },
        { header: 'TransactionID', cell: (d) => d.transactionId },
        { header: 'Attempts', cell: (d) => d.attempts, numeric: true },
        {
          header: 'Last answer',
          cell: (d) => (d.lastStatusCode === null ? (d.lastError ?? '') : `HTTP ${d.lastStatusCode}`),
        },
        { header: 'Given up', cell: (d) => (d.finishedAt ? ist(d.finishedAt) : '') },
      ],
      rows: await listFailedWebhookDeliveries(deps.db, LIST_LIMIT),
      empty: 'No webhook delivery is held or has been given up.',
    });
  });

  router.get('/console/lists/discrepancies', async (_req, res) => {
    renderListPage(res, {
      title: 'Open discrepancies',
      intro: (
        <p>
          Where the bank contradicted a settled payout (or a pay-in report contradicted another). Each is resolved
          through the ledger with <code>pnpm cli discrepancy resolve</code> (docs/reconciliation.md).
        </p>
      ),
      columns: [
        { header: 'Kind', cell: (d) => d.kind },
        {
          header: 'Subject',
          cell: (d) => (d.payoutId === null ? d.ackNo : <a href={`/console/payouts/${d.ackNo}`}>{d.ackNo}</a>),
        },
        { header: 'TransactionID', cell: (d) => d.transactionId },
        { header: 'Amount', cell: (d) => rupees(d.amountPaise), numeric: true },
        { header: 'State here', cell: (d) => d.stateHere },
        { header: 'Source', cell: (d) => d.source },
        { header: 'Seen', cell: (d) => d.timesSeen, numeric: true },
        { header: 'First seen', cell: (d) => ist(d.createdAt) },
      ],
      rows: await listDiscrepancies(deps.db, { limit: LIST_LIMIT }),
      empty: 'No discrepancy is open.',
    });
  });

  router.get('/console/audit', async (_req, res) => {
    const viewer = signedIn(res);
    const actions = await listOperatorActions(deps.db, { limit: LIST_LIMIT });
    renderPage(
      res,
      200,
      <Page title="Audit log" viewer={viewer}>
        <p>Every operator action, from the console and the CLI, newest first.</p>
        <AuditTable actions={actions} empty="No operator action yet." />
      </Page>,
    );
  });

  return router;
}

/**
 * What a search box entry names: "MID TransactionID" (two words), or one word that is an Ack_no and then
 * a UTR (an Ack_no-shaped word may be a UTR too, so both are tried in that order).
 */
export function searchKeys(query: string): PayoutSearch[] | undefined {
  const words = query.split(/[\s/]+/).filter(Boolean);
  if (words.length === 2) {
    const [mid, transactionId] = words as [string, string];
    return isMid(mid) && isTransactionId(transactionId) ? [{ by: 'transaction', mid, transactionId }] : undefined;
  }
  if (words.length !== 1) return undefined;
  const word = words[0]!;
  if (!/^[A-Za-z0-9]{1,64}$/.test(word)) return undefined;
  const keys: PayoutSearch[] = [];
  if (ACK_NO_PATTERN.test(word.toUpperCase())) keys.push({ by: 'ack', ackNo: word.toUpperCase() });
  keys.push({ by: 'utr', utr: word });
  return keys;
}

/** The viewer of a page behind the sign-in guard (console-routes.ts puts every page here behind it). */
export function signedIn(res: Parameters<typeof viewerOf>[0]): Viewer {
  const viewer = viewerOf(res);
  if (!viewer) throw new Error('console page reached without a signed-in viewer');
  return viewer;
}

/** Sends a list page to the signed-in viewer. */
export function renderListPage<Row>(res: Response, list: Omit<ListPageProps<Row>, 'viewer'>): void {
  renderPage(res, 200, <ListPage viewer={signedIn(res)} {...list} />);
}

export function notFound(res: Parameters<typeof viewerOf>[0], viewer: Viewer, message: string): void {
  renderPage(
    res,
    404,
    <MessagePage title="Not found" viewer={viewer}>
      <p>{message}</p>
    </MessagePage>,
  );
}

/** The merchant the path names, or a 404 page and null. */
export async function merchantOr404(
  db: ConsoleDependencies['db'],
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<Merchant | null> {
  const mid = String(req.params.mid);
  const merchant = isMid(mid) ? await findMerchantByMid(db, mid) : null;
  if (!merchant) merchantNotFound(res, viewer, mid);
  return merchant;
}

export function merchantNotFound(res: Parameters<typeof viewerOf>[0], viewer: Viewer, mid: string): void {
  notFound(res, viewer, `No merchant has the MID ${mid}.`);
}

export function wholeNumber(value: unknown, fallback: number): number {
  return typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : fallback;
}
