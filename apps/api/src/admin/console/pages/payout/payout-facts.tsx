import type { PayoutStory } from '@payout/db';
import { isHeld, payoutMessage, type FailureReason, type PayoutState, type PayoutStatus } from '@payout/domain';
import { elapsed, ist, rupees } from '../../views/format.js';
import { StatusBadge } from '../../views/layout.js';

export type Payout = PayoutStory['payout'];

/** What the merchant sees of the payout (its lookup answer) next to what we know inside. */
export function PayoutFacts({ payout: p }: { payout: Payout }) {
  const status = p.status as PayoutStatus;
  const lookupStatus = status.charAt(0) + status.slice(1).toLowerCase();
  return (
    <dl class="facts">
      <dt>Merchant</dt>
      <dd>
        <a href={`/console/merchants/${encodeURIComponent(p.mid)}`}>{p.mid}</a> · {p.merchantName}
      </dd>
      <dt>TransactionID</dt>
      <dd>{p.transactionId}</dd>
      <dt>Amount</dt>
      <dd>
        {rupees(p.amountPaise)} by {p.mode}
      </dd>
      <dt>Merchant sees</dt>
      <dd>
        <StatusBadge status={p.status} /> “{lookupStatus}” ·{' '}
        {payoutMessage(
          status,
          p.failureReason as FailureReason | null,
          p.state as PayoutState,
          isHeld({ state: p.state as PayoutState, heldSince: p.heldSince }),
        )}
      </dd>
      <dt>Bank</dt>
      <dd>
        <BankFacts payout={p} />
      </dd>
      <dt>Bankriff (UTR)</dt>
      <dd>{p.bankReference ?? '—'}</dd>
      <dt>State inside</dt>
      <dd>
        {p.state} · {p.submitAttempts} submit(s), {p.inquiryAttempts} inquiry(ies)
        {p.nextCheckAt && ` · next step due ${ist(p.nextCheckAt)}`}
      </dd>
      <dt>Beneficiary</dt>
      <dd>
        {p.beneficiaryName} · {p.beneficiaryAccount}
        {p.beneficiaryIfsc && ` · ${p.beneficiaryIfsc}`}
      </dd>
      <dt>Accepted</dt>
      <dd>{ist(p.createdAt)}</dd>
      <dt>Settled</dt>
      <dd>{p.settledAt ? `${ist(p.settledAt)} (${elapsed(p.createdAt, p.settledAt)} after accept)` : '—'}</dd>
    </dl>
  );
}

/** Which bank the payout went to and why routing chose it (docs/banks.md), or that it waits for one. */
function BankFacts({ payout: p }: { payout: Payout }) {
  const held =
    p.heldSince && p.state === 'ACCEPTED' ? `held since ${ist(p.heldSince)}: no bank serves ${p.mode}` : null;
  if (!p.bank) return <>{held ?? 'not sent yet'}</>;
  const r = p.routing;
  return (
    <>
      {p.bank}
      {r &&
        ` · routed to ${r.bank} (${r.reason}${r.score === null ? '' : `, score ${r.score.toFixed(2)}`}) at ${ist(new Date(r.at))}`}
      {held && ` · ${held}`}
    </>
  );
}
