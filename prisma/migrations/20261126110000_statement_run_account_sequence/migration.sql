-- Which account a statement run read, and its statement number, so the next file for that account is checked
-- for a missing day (docs/reconciliation-formats.md, "The file as a whole").
ALTER TABLE "statement_runs" ADD COLUMN "account" VARCHAR(64);
ALTER TABLE "statement_runs" ADD COLUMN "statement_sequence" INTEGER;

-- CreateIndex
CREATE INDEX "statement_runs_account_statement_sequence_idx" ON "statement_runs"("account", "statement_sequence");
