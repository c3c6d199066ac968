-- Statement reconciliation (docs/reconciliation.md): every run of `pnpm cli recon statement` is stored —
-- who, when, which file (its SHA-256), whether it applied, and what it found — so a file run twice is
-- seen to be the same file, and the daily job leaves a trail.

-- CreateTable
CREATE TABLE "statement_runs" (
    "id" BIGSERIAL NOT NULL,
    "file_digest" CHAR(64) NOT NULL,
    "file_name" VARCHAR(255) NOT NULL,
    "operator" VARCHAR(100) NOT NULL,
    "applied" BOOLEAN NOT NULL,
    "value_dates" VARCHAR(2000) NOT NULL,
    "lines" INTEGER NOT NULL,
    "counts" JSONB NOT NULL,
    "breaks" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "statement_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "statement_runs_file_digest_idx" ON "statement_runs"("file_digest");

ALTER TABLE "statement_runs"
    ADD CONSTRAINT "statement_runs_file_digest_hex" CHECK ("file_digest" ~ '^[0-9a-f]{64}$'),
    ADD CONSTRAINT "statement_runs_counts_non_negative" CHECK ("lines" >= 0 AND "breaks" >= 0);

-- The statement's "payouts of these dates" scan: settled payouts by when they were settled.
CREATE INDEX "payouts_settled_at_idx" ON "payouts"("settled_at") WHERE "settled_at" IS NOT NULL;
