import type { Response } from 'express';
import type { PayoutStory } from '@payout/db';
import { FAILURE_REASON_TEXT, RESOLUTION_FAILURE_REASONS } from '@payout/domain';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { rupees } from '../views/format.js';

/** The resolution's confirmation page: what will happen, success or failure, and the override. */
export function resolvePage(res: Response, viewer: Viewer, story: PayoutStory, status = 200, error?: string): void {
  const p = story.payout;
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Resolve payout ${p.ackNo}`}
      action={`/console/payouts/${p.ackNo}/resolve`}
      back={`/console/payouts/${p.ackNo}`}
      error={error}
      confirm="Ask the rail, then request the resolution"
      explanation={
        <>
          <p>
            {rupees(p.amountPaise)} to {p.beneficiaryName} for {p.mid}, under manual review. The rail is asked for its
            answer first: a resolution that disagrees with it is refused unless you override it, and the override and
            its reason go to the audit log.
          </p>
          <p>
            Nothing changes yet: the resolution becomes a request that another approver approves (the rail is asked
            again then).
          </p>
        </>
      }
      fields={<ResolutionFields />}
    />,
  );
}

function ResolutionFields() {
  return (
    <>
      <fieldset>
        <legend>Resolve as</legend>
        <label>
          <input type="radio" name="outcome" value="success" required /> Success (paid)
        </label>
        <label>
          <input type="radio" name="outcome" value="failed" /> Failed (the money returns to the wallet)
        </label>
      </fieldset>
      <label for="utr">UTR, for a success (the rail's, if left empty)</label>
      <input id="utr" name="utr" maxLength={64} />
      <label for="reason">Failure reason, for a failure</label>
      <select id="reason" name="reason">
        {RESOLUTION_FAILURE_REASONS.map((r) => (
          <option value={r}>{FAILURE_REASON_TEXT[r]}</option>
        ))}
      </select>
      <label>
        <input type="checkbox" name="override" value="yes" /> Override: resolve even if the rail disagrees or cannot be
        asked
      </label>
    </>
  );
}
