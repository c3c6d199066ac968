import { searchPayouts, type PayoutListRow, type PayoutSearch } from '@payout/db';
import { ACK_NO_PATTERN, isMid, isTransactionId } from '@payout/domain';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { Page, RowsTable } from '../views/layout.js';
import { payoutColumns } from '../views/payout-columns.js';

/** The console's home, GET /console: one search box; one match opens the payout (docs/operations.md, "Find"). */
export function searchRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console',
    allow('read', async (req, res, viewer) => {
      const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
      if (!query) {
        renderPage(res, 200, <SearchPage viewer={viewer} />);
        return;
      }
      const keys = searchKeys(query);
      if (!keys) {
        renderPage(res, 400, <SearchPage viewer={viewer} query={query} problem={NOT_A_KEY} />);
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
    }),
  );
  return router;
}

const NOT_A_KEY = 'Type a MID and a TransactionID (digits) separated by a space, an Ack_no, or a UTR.';

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

/** The search box for the three keys support is given, with what it found or why it could not look. */
function SearchPage(props: { viewer: Viewer; query?: string; results?: PayoutListRow[]; problem?: string }) {
  return (
    <Page title="Find a payout" viewer={props.viewer}>
      <form method="get" action="/console" role="search" class="search">
        <label for="q">MID and TransactionID, an Ack_no, or a UTR (Bankriff)</label>
        <div class="row">
          <input
            id="q"
            name="q"
            value={props.query ?? ''}
            placeholder="ACME01 123456  ·  AK2611230001ABCD  ·  412345678901"
            autofocus
          />
          <button type="submit">Search</button>
        </div>
        <p class="hint">
          Separate a MID and a TransactionID with a space. A single word is looked up as an Ack_no, then as a UTR.
        </p>
      </form>
      {props.problem && (
        <p class="error" role="alert">
          {props.problem}
        </p>
      )}
      {props.results && (
        <RowsTable caption="Matching payouts" columns={payoutColumns} rows={props.results} empty="No payout matches." />
      )}
    </Page>
  );
}
