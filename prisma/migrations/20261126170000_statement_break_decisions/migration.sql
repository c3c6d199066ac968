-- A person's decision on a break a statement run left (docs/reconciliation.md, "The breaks page"): the line
-- was matched to a payout, it is not a payout of ours, the bank was asked (still open, waiting), or the next
-- day's statement booked it. A break is its run and its 1-based position in the run's break_list; the kind
-- and reference are kept with it, so a decision never attaches to another break if the list is rewritten
-- (applying a run drops the breaks it resolved).

-- CreateEnum
CREATE TYPE "statement_break_decision" AS ENUM ('matched', 'not_ours', 'needs_bank', 'booked_next_day');

-- CreateTable
CREATE TABLE "statement_break_decisions" (
    "id" BIGSERIAL NOT NULL,
    "run_id" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "break_kind" VARCHAR(40) NOT NULL,
    "reference" VARCHAR(255) NOT NULL,
    "decision" "statement_break_decision" NOT NULL,
    "decided_by" VARCHAR(100) NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "note" VARCHAR(500) NOT NULL,
    "payout_id" BIGINT,
    "approval_request_id" BIGINT,

    CONSTRAINT "statement_break_decisions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "statement_break_decisions_position_positive" CHECK ("position" >= 1),
    CONSTRAINT "statement_break_decisions_note_given" CHECK (length(btrim("note")) > 0),
    -- A match names the payout it matched; booked_next_day names the payout the later run matched; the
    -- others name none. Only a match that moved money went through an approval.
    CONSTRAINT "statement_break_decisions_payout_when_matched" CHECK (
      ("decision" IN ('matched', 'booked_next_day')) = ("payout_id" IS NOT NULL)),
    CONSTRAINT "statement_break_decisions_approval_only_for_match" CHECK (
      "approval_request_id" IS NULL OR "decision" = 'matched')
);

-- One current decision per break.
CREATE UNIQUE INDEX "statement_break_decisions_run_id_position_key" ON "statement_break_decisions"("run_id", "position");
CREATE INDEX "statement_break_decisions_payout_id_idx" ON "statement_break_decisions"("payout_id") WHERE "payout_id" IS NOT NULL;

-- AddForeignKey
ALTER TABLE "statement_break_decisions" ADD CONSTRAINT "statement_break_decisions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "statement_runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "statement_break_decisions" ADD CONSTRAINT "statement_break_decisions_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "statement_break_decisions" ADD CONSTRAINT "statement_break_decisions_approval_request_id_fkey" FOREIGN KEY ("approval_request_id") REFERENCES "approval_requests"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Matching a statement line to a payout, when it settles or reverses it, is a money action for a second person.
ALTER TABLE "approval_requests" DROP CONSTRAINT "approval_requests_action_known";
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_action_known" CHECK (
  "action" IN ('wallet.credit', 'payout.resolve', 'discrepancy.resolve', 'statement.apply', 'token.issue',
               'statement.match'));
