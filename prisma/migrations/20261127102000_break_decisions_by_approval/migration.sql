-- A break that says money is missing is set aside ("not ours", "needs the bank") only on a second person's
-- approval (docs/reconciliation.md, "The breaks page"), so such a decision names its approval request too.
-- Only the next-day rule decides without a person, and so without a request.
ALTER TABLE "statement_break_decisions" DROP CONSTRAINT "statement_break_decisions_approval_only_for_match";
ALTER TABLE "statement_break_decisions" ADD CONSTRAINT "statement_break_decisions_approval_by_a_person" CHECK (
  "approval_request_id" IS NULL OR "decision" <> 'booked_next_day');
