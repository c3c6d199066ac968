-- CreateEnum
CREATE TYPE "merchant_status" AS ENUM ('ACTIVE', 'SUSPENDED');

-- CreateEnum
CREATE TYPE "payout_mode" AS ENUM ('IMPS', 'UPI');

-- CreateEnum
CREATE TYPE "payout_state" AS ENUM ('ACCEPTED', 'SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW', 'SUCCESS', 'FAILED');

-- CreateEnum
CREATE TYPE "payout_status" AS ENUM ('PENDING', 'SUCCESS', 'FAILED');

-- CreateEnum
CREATE TYPE "failure_reason" AS ENUM ('INSUFFICIENT_BALANCE', 'INVALID_BENEFICIARY_ACCOUNT', 'INVALID_UPI_ADDRESS', 'DECLINED_BY_BENEFICIARY_BANK', 'RAIL_REJECTED');

-- CreateEnum
CREATE TYPE "ledger_account" AS ENUM ('FUNDING', 'MAIN_WALLET', 'RESERVED', 'PAID_OUT');

-- CreateEnum
CREATE TYPE "ledger_entry_kind" AS ENUM ('WALLET_CREDIT', 'COLLECTION_CREDIT', 'PAYOUT_RESERVE', 'PAYOUT_SETTLE', 'PAYOUT_RELEASE');

-- CreateEnum
CREATE TYPE "collection_mode" AS ENUM ('INTENT', 'COLLECT', 'QR');

-- CreateEnum
CREATE TYPE "collection_status" AS ENUM ('PENDING', 'SUCCESS', 'FAILED');

-- CreateTable
CREATE TABLE "merchants" (
    "id" SERIAL NOT NULL,
    "mid" VARCHAR(64) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "status" "merchant_status" NOT NULL DEFAULT 'ACTIVE',
    "imps_max_paise" BIGINT NOT NULL DEFAULT 50000000,
    "upi_max_paise" BIGINT NOT NULL DEFAULT 10000000,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merchant_tokens" (
    "id" SERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "token_prefix" VARCHAR(12) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "merchant_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "merchant_id" INTEGER NOT NULL,
    "available_paise" BIGINT NOT NULL DEFAULT 0,
    "reserved_paise" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("merchant_id")
);

-- CreateTable
CREATE TABLE "payouts" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "transaction_id" VARCHAR(30) NOT NULL,
    "mode" "payout_mode" NOT NULL,
    "amount_paise" BIGINT NOT NULL,
    "ack_no" VARCHAR(20) NOT NULL,
    "state" "payout_state" NOT NULL,
    "status" "payout_status" NOT NULL,
    "beneficiary_account" VARCHAR(256) NOT NULL,
    "beneficiary_ifsc" CHAR(11),
    "beneficiary_name" VARCHAR(100) NOT NULL,
    "beneficiary_bank_name" VARCHAR(100),
    "beneficiary_mobile" VARCHAR(10),
    "beneficiary_email" VARCHAR(254),
    "description" VARCHAR(255),
    "failure_reason" "failure_reason",
    "bank_reference" VARCHAR(64),
    "submit_attempts" INTEGER NOT NULL DEFAULT 0,
    "inquiry_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_check_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payout_events" (
    "id" BIGSERIAL NOT NULL,
    "payout_id" BIGINT NOT NULL,
    "from_state" "payout_state",
    "to_state" "payout_state" NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "attempt" INTEGER,
    "rail_answer" JSONB,
    "actor" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "kind" "ledger_entry_kind" NOT NULL,
    "account" "ledger_account" NOT NULL,
    "amount_paise" BIGINT NOT NULL,
    "payout_id" BIGINT,
    "collection_id" BIGINT,
    "reference" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collections" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "transaction_id" VARCHAR(30) NOT NULL,
    "mode" "collection_mode" NOT NULL,
    "payer_account" VARCHAR(256) NOT NULL DEFAULT '',
    "amount_paise" BIGINT NOT NULL,
    "bank_reference" VARCHAR(64) NOT NULL DEFAULT '',
    "ack_no" VARCHAR(20) NOT NULL,
    "status" "collection_status" NOT NULL,
    "credited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "merchants_mid_key" ON "merchants"("mid");

-- CreateIndex
CREATE UNIQUE INDEX "merchant_tokens_token_hash_key" ON "merchant_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "merchant_tokens_merchant_id_idx" ON "merchant_tokens"("merchant_id");

-- CreateIndex
CREATE UNIQUE INDEX "payouts_ack_no_key" ON "payouts"("ack_no");

-- CreateIndex
CREATE UNIQUE INDEX "payouts_merchant_id_transaction_id_key" ON "payouts"("merchant_id", "transaction_id");

-- CreateIndex
CREATE INDEX "payout_events_payout_id_idx" ON "payout_events"("payout_id");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_account_idx" ON "ledger_entries"("merchant_id", "account");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_payout_id_kind_account_key" ON "ledger_entries"("payout_id", "kind", "account");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_collection_id_kind_account_key" ON "ledger_entries"("collection_id", "kind", "account");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_merchant_id_reference_kind_account_key" ON "ledger_entries"("merchant_id", "reference", "kind", "account");

-- CreateIndex
CREATE UNIQUE INDEX "collections_ack_no_key" ON "collections"("ack_no");

-- CreateIndex
CREATE UNIQUE INDEX "collections_merchant_id_transaction_id_key" ON "collections"("merchant_id", "transaction_id");

-- AddForeignKey
ALTER TABLE "merchant_tokens" ADD CONSTRAINT "merchant_tokens_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payout_events" ADD CONSTRAINT "payout_events_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------------
-- Money-safety constraints that Prisma's schema language cannot express. The database refuses a bad
-- write even if the code that issues it is wrong. Each is listed in test/schema-agreement.test.ts.
-- ---------------------------------------------------------------------------------------------------

ALTER TABLE "merchants"
    ADD CONSTRAINT "merchants_mid_format" CHECK ("mid" ~ '^[A-Za-z0-9_-]{1,64}$'),
    ADD CONSTRAINT "merchants_limits_positive" CHECK ("imps_max_paise" > 0 AND "upi_max_paise" > 0);

ALTER TABLE "wallets"
    ADD CONSTRAINT "wallets_available_non_negative" CHECK ("available_paise" >= 0),
    ADD CONSTRAINT "wallets_reserved_non_negative" CHECK ("reserved_paise" >= 0);

ALTER TABLE "payouts"
    ADD CONSTRAINT "payouts_amount_positive" CHECK ("amount_paise" > 0),
    ADD CONSTRAINT "payouts_transaction_id_digits" CHECK ("transaction_id" ~ '^[0-9]{1,30}$'),
    ADD CONSTRAINT "payouts_ack_no_format" CHECK ("ack_no" ~ '^[A-Z0-9]{12,20}$'),
    ADD CONSTRAINT "payouts_ifsc_only_for_imps" CHECK (("mode" = 'IMPS') = ("beneficiary_ifsc" IS NOT NULL)),
    -- The merchant-facing status is a function of the internal state; the two can never disagree.
    ADD CONSTRAINT "payouts_status_matches_state" CHECK (
        CASE "state"
            WHEN 'SUCCESS' THEN "status" = 'SUCCESS'
            WHEN 'FAILED' THEN "status" = 'FAILED'
            ELSE "status" = 'PENDING'
        END),
    ADD CONSTRAINT "payouts_success_has_bank_reference" CHECK (("state" = 'SUCCESS') = ("bank_reference" IS NOT NULL)),
    ADD CONSTRAINT "payouts_failed_has_reason" CHECK (("state" = 'FAILED') = ("failure_reason" IS NOT NULL)),
    ADD CONSTRAINT "payouts_settled_when_terminal" CHECK (("state" IN ('SUCCESS', 'FAILED')) = ("settled_at" IS NOT NULL));

ALTER TABLE "collections"
    ADD CONSTRAINT "collections_amount_positive" CHECK ("amount_paise" > 0),
    ADD CONSTRAINT "collections_transaction_id_digits" CHECK ("transaction_id" ~ '^[0-9]{1,30}$'),
    ADD CONSTRAINT "collections_ack_no_format" CHECK ("ack_no" ~ '^[A-Z0-9]{12,20}$'),
    ADD CONSTRAINT "collections_credited_only_on_success" CHECK ("credited_at" IS NULL OR "status" = 'SUCCESS');

ALTER TABLE "ledger_entries"
    -- Each entry kind names its source: a payout, a collection, or an operator's credit reference.
    ADD CONSTRAINT "ledger_entries_source_matches_kind" CHECK (
        CASE "kind"
            WHEN 'WALLET_CREDIT' THEN "reference" IS NOT NULL AND "payout_id" IS NULL AND "collection_id" IS NULL
            WHEN 'COLLECTION_CREDIT' THEN "collection_id" IS NOT NULL AND "payout_id" IS NULL AND "reference" IS NULL
            ELSE "payout_id" IS NOT NULL AND "collection_id" IS NULL AND "reference" IS NULL
        END),
    -- Each kind moves money between exactly two accounts, in one direction.
    ADD CONSTRAINT "ledger_entries_leg_direction" CHECK (
        CASE "kind"
            WHEN 'WALLET_CREDIT' THEN ("account" = 'FUNDING' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'COLLECTION_CREDIT' THEN ("account" = 'FUNDING' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'PAYOUT_RESERVE' THEN ("account" = 'MAIN_WALLET' AND "amount_paise" < 0) OR ("account" = 'RESERVED' AND "amount_paise" > 0)
            WHEN 'PAYOUT_SETTLE' THEN ("account" = 'RESERVED' AND "amount_paise" < 0) OR ("account" = 'PAID_OUT' AND "amount_paise" > 0)
            WHEN 'PAYOUT_RELEASE' THEN ("account" = 'RESERVED' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
        END);

-- A payout's reservation ends once: either settled out or released back, never both.
CREATE UNIQUE INDEX "ledger_entries_one_terminal_entry_per_payout" ON "ledger_entries"("payout_id")
    WHERE "kind" IN ('PAYOUT_SETTLE', 'PAYOUT_RELEASE') AND "account" = 'RESERVED';

-- The sweeper's scan: non-terminal payouts by when their next step is due.
CREATE INDEX "payouts_pending_next_check_idx" ON "payouts"("next_check_at") WHERE "status" = 'PENDING';
