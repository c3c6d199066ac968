-- Four eyes on money (docs/operations.md, "Approvals"): a money action asked for by one person waits here
-- until a second person approves it (then it runs, once) or rejects it, its maker cancels it, or it expires.

-- CreateEnum
CREATE TYPE "approval_state" AS ENUM ('REQUESTED', 'EXECUTED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED');

-- CreateTable
CREATE TABLE "approval_requests" (
    "id" BIGSERIAL NOT NULL,
    "action" VARCHAR(40) NOT NULL,
    "state" "approval_state" NOT NULL DEFAULT 'REQUESTED',
    "maker" VARCHAR(64) NOT NULL,
    "maker_reason" VARCHAR(400) NOT NULL,
    "merchant_id" INTEGER,
    "payout_id" BIGINT,
    "params" JSONB NOT NULL,
    "preview" JSONB NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_by" VARCHAR(64),
    "decided_at" TIMESTAMPTZ(3),
    "decision_note" VARCHAR(400),
    "outcome" JSONB,

    CONSTRAINT "approval_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approval_requests_action_known" CHECK (
      "action" IN ('wallet.credit', 'payout.resolve', 'discrepancy.resolve', 'statement.apply', 'token.issue')),
    -- A request is decided exactly when it has left REQUESTED, and an approval is never the maker's own
    -- unless development allowed it (the application's rule; here only "decided by someone" is kept).
    CONSTRAINT "approval_requests_decided" CHECK (
      ("state" = 'REQUESTED') = ("decided_at" IS NULL) AND ("decided_at" IS NULL) = ("decided_by" IS NULL)),
    CONSTRAINT "approval_requests_expiry_after_request" CHECK ("expires_at" > "requested_at")
);

-- The open requests, oldest first (the console's list and the CLI's).
CREATE INDEX "approval_requests_open_idx" ON "approval_requests"("requested_at") WHERE "state" = 'REQUESTED';
CREATE INDEX "approval_requests_payout_id_idx" ON "approval_requests"("payout_id") WHERE "payout_id" IS NOT NULL;
CREATE INDEX "approval_requests_merchant_id_idx" ON "approval_requests"("merchant_id") WHERE "merchant_id" IS NOT NULL;

-- AddForeignKey
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
