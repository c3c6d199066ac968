-- The support console (docs/operations.md, "Support console"): the people who sign in, their sessions,
-- the audit log of every operator action, and when each merchant token was last used.

-- CreateEnum
CREATE TYPE "console_role" AS ENUM ('SUPPORT', 'OPERATOR');

-- CreateTable
CREATE TABLE "console_users" (
    "id" SERIAL NOT NULL,
    "username" VARCHAR(64) NOT NULL,
    "role" "console_role" NOT NULL,
    "password_hash" VARCHAR(200) NOT NULL,
    "disabled_at" TIMESTAMPTZ(3),
    "password_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_users_username_format" CHECK ("username" ~ '^[a-z0-9][a-z0-9._-]{0,63}$')
);

-- CreateTable
CREATE TABLE "console_sessions" (
    "id_hash" CHAR(64) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "csrf_token" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id_hash")
);

-- CreateTable
CREATE TABLE "operator_actions" (
    "id" BIGSERIAL NOT NULL,
    "actor" VARCHAR(100) NOT NULL,
    "action" VARCHAR(50) NOT NULL,
    "merchant_id" INTEGER,
    "payout_id" BIGINT,
    "reason" VARCHAR(500) NOT NULL,
    "detail" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_actions_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "merchant_tokens" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "console_users_username_key" ON "console_users"("username");

-- CreateIndex
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");

-- CreateIndex
CREATE INDEX "operator_actions_created_at_idx" ON "operator_actions"("created_at");

-- CreateIndex
CREATE INDEX "operator_actions_merchant_id_idx" ON "operator_actions"("merchant_id");

-- CreateIndex
CREATE INDEX "operator_actions_payout_id_idx" ON "operator_actions"("payout_id");

-- The console's lists: payouts by merchant and date, and pending payouts by age.
CREATE INDEX "payouts_merchant_id_created_at_idx" ON "payouts"("merchant_id", "created_at");
CREATE INDEX "payouts_state_created_at_idx" ON "payouts"("state", "created_at") WHERE "status" = 'PENDING';
CREATE INDEX "payouts_bank_reference_idx" ON "payouts"("bank_reference") WHERE "bank_reference" IS NOT NULL;

-- AddForeignKey
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
