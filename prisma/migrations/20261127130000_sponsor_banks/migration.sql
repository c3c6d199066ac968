-- Several sponsor banks (docs/banks.md). A payout records the bank it was sent to — every later status
-- check, resubmit, resolution, reversal and statement uses that bank — and the routing decision that chose
-- it. Payouts sent before there were several banks went to the one bank, whose alias is `primary` unless
-- BANKS names it otherwise.

-- AlterTable
ALTER TABLE "payouts"
  ADD COLUMN "bank" VARCHAR(32),
  ADD COLUMN "routing" JSONB,
  ADD COLUMN "held_since" TIMESTAMPTZ(3);

UPDATE "payouts" SET "bank" = 'primary' WHERE "submit_attempts" > 0;

-- A merchant may be pinned to one bank, and says how long its payouts are held through a downtime.
ALTER TABLE "merchants"
  ADD COLUMN "pinned_bank" VARCHAR(32),
  ADD COLUMN "downtime_hold_seconds" INTEGER NOT NULL DEFAULT 1800,
  ADD CONSTRAINT "merchants_downtime_hold_range"
    CHECK ("downtime_hold_seconds" > 0 AND "downtime_hold_seconds" <= 86400);

-- A bank eliminated (DOWN) or below par (DEGRADED) for a mode, from `since` until it is resolved; at most
-- one open per bank and mode. Merchants see the open ones (GET /api/downtimes) and are told of each.
CREATE TABLE "bank_downtimes" (
  "id" BIGSERIAL NOT NULL,
  "bank" VARCHAR(32) NOT NULL,
  "mode" "payout_mode" NOT NULL,
  "status" VARCHAR(8) NOT NULL,
  "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "resolved_at" TIMESTAMPTZ(3),
  CONSTRAINT "bank_downtimes_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "bank_downtimes_status_known" CHECK ("status" IN ('DOWN', 'DEGRADED')),
  CONSTRAINT "bank_downtimes_resolved_after_since" CHECK ("resolved_at" IS NULL OR "resolved_at" >= "since")
);
CREATE UNIQUE INDEX "bank_downtimes_one_open_per_bank_mode" ON "bank_downtimes" ("bank", "mode") WHERE "resolved_at" IS NULL;

-- An operator's hold on a bank (ACTIVE, DRAINING, PAUSED); a bank without a row is ACTIVE.
CREATE TABLE "bank_controls" (
  "bank" VARCHAR(32) NOT NULL,
  "state" VARCHAR(10) NOT NULL,
  "reason" VARCHAR(500),
  "changed_by" VARCHAR(100) NOT NULL,
  "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "bank_controls_pkey" PRIMARY KEY ("bank"),
  CONSTRAINT "bank_controls_state_known" CHECK ("state" IN ('ACTIVE', 'DRAINING', 'PAUSED'))
);

-- Each bank's health per mode as routing last scored it: the sliding window's counts, the score (0..1, null
-- while the window holds too few outcomes), and whether routing has eliminated it. Written by the worker that
-- scores (docs/banks.md, "Routing"), read by the console and the metrics.
CREATE TABLE "bank_health" (
  "bank" VARCHAR(32) NOT NULL,
  "mode" "payout_mode" NOT NULL,
  "score" DOUBLE PRECISION,
  "paid" INTEGER NOT NULL DEFAULT 0,
  "refused" INTEGER NOT NULL DEFAULT 0,
  "technical" INTEGER NOT NULL DEFAULT 0,
  "timeouts" INTEGER NOT NULL DEFAULT 0,
  "eliminated" BOOLEAN NOT NULL DEFAULT false,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "bank_health_pkey" PRIMARY KEY ("bank", "mode")
);
