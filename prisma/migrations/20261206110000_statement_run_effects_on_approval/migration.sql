-- What a statement run found counts only once it takes effect (docs/reconciliation.md, "When a run takes
-- effect"): at once when it asks nothing of a second person, else when its statement.apply request is
-- approved, in the approver's transaction. Until then its breaks are not listed, its statement number does not
-- count, and the discrepancies it found and the earlier breaks it answers (the next-day rule) wait in the run.
ALTER TABLE "statement_runs"
  ADD COLUMN "effective_at" TIMESTAMPTZ(3),
  ADD COLUMN "approval_request_id" BIGINT,
  ADD COLUMN "break_closures" JSONB NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN "found_discrepancies" JSONB NOT NULL DEFAULT '[]'::jsonb;

-- Every run stored before took effect when it was stored.
UPDATE "statement_runs" SET "effective_at" = "finished_at";
