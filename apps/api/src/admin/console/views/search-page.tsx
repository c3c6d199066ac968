import type { PayoutListRow } from '@payout/db';
import type { Viewer } from '../console-session.js';
import { Page, RowsTable } from './layout.js';
import { payoutColumns } from './payout-columns.js';

/** The console's home: one search box for the three keys support is given. */
export function SearchPage(props: { viewer: Viewer; query?: string; results?: PayoutListRow[]; problem?: string }) {
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
