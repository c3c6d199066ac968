-- Merchant webhooks: each merchant's endpoint and signing secret, the outbox of deliveries (one row per
-- notification of a payout's result) and every attempt at each.

-- CreateEnum
CREATE TYPE "webhook_delivery_status" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateEnum
CREATE TYPE "webhook_delivery_cause" AS ENUM ('SETTLEMENT', 'REPLAY');

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "merchant_id" INTEGER NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "signing_secret" VARCHAR(100) NOT NULL,
    "secret_prefix" VARCHAR(16) NOT NULL,
    "previous_secret" VARCHAR(100),
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "payout_id" BIGINT NOT NULL,
    "cause" "webhook_delivery_cause" NOT NULL,
    "status" "webhook_delivery_status" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "requested_by" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER,
    "status_code" INTEGER,
    "error" VARCHAR(500),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_deliveries_payout_id_idx" ON "webhook_deliveries"("payout_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_key" ON "webhook_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------------
-- Beyond Prisma's schema language; each is listed in test/schema-agreement.test.ts.
-- ---------------------------------------------------------------------------------------------------

ALTER TABLE "webhook_endpoints"
    ADD CONSTRAINT "webhook_endpoints_url_http" CHECK ("url" ~ '^https?://'),
    -- A previous secret is honoured only for a bounded time.
    ADD CONSTRAINT "webhook_endpoints_previous_secret_expires" CHECK (("previous_secret" IS NULL) = ("previous_secret_expires_at" IS NULL));

ALTER TABLE "webhook_deliveries"
    ADD CONSTRAINT "webhook_deliveries_attempts_non_negative" CHECK ("attempts" >= 0),
    -- A pending delivery always knows when it is next due (the sweeper's scan relies on it); a finished one
    -- is never due again and records when it finished.
    ADD CONSTRAINT "webhook_deliveries_due_while_pending" CHECK (("status" = 'PENDING') = ("next_attempt_at" IS NOT NULL)),
    ADD CONSTRAINT "webhook_deliveries_finished_when_final" CHECK (("status" = 'PENDING') = ("finished_at" IS NULL)),
    ADD CONSTRAINT "webhook_deliveries_delivered_after_an_attempt" CHECK ("status" <> 'DELIVERED' OR "attempts" > 0);

ALTER TABLE "webhook_attempts"
    ADD CONSTRAINT "webhook_attempts_attempt_positive" CHECK ("attempt" >= 1),
    ADD CONSTRAINT "webhook_attempts_status_code_range" CHECK ("status_code" IS NULL OR "status_code" BETWEEN 100 AND 599),
    ADD CONSTRAINT "webhook_attempts_duration_non_negative" CHECK ("duration_ms" IS NULL OR "duration_ms" >= 0);

-- A payout is settled once, so it has at most one settlement notification (replays are further rows).
CREATE UNIQUE INDEX "webhook_deliveries_one_settlement_per_payout" ON "webhook_deliveries"("payout_id")
    WHERE "cause" = 'SETTLEMENT';

-- The webhook sweeper's scan: pending deliveries by when they are due.
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'PENDING';
