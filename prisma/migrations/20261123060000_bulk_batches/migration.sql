-- Bulk payouts (docs/api.md, "Bulk payouts"): a merchant's batch, recorded once all its items were
-- answered, and which payout (or which refusal) each item became. Every item that passed validation is an
-- ordinary payout in "payouts"; the batch only remembers the mapping, so the same BatchID can be answered
-- again with its items' current states, and a different batch under the same BatchID refused (409).

-- CreateTable
CREATE TABLE "bulk_batches" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "batch_id" VARCHAR(30) NOT NULL,
    "items_digest" CHAR(64) NOT NULL,
    "total" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_batches_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "bulk_batches_batch_id_digits" CHECK ("batch_id" ~ '^[0-9]{1,30}$'),
    CONSTRAINT "bulk_batches_total_range" CHECK ("total" BETWEEN 1 AND 5000)
);

-- CreateTable
CREATE TABLE "bulk_batch_items" (
    "batch_id" BIGINT NOT NULL,
    "item_index" INTEGER NOT NULL,
    "payout_id" BIGINT,
    "refusal" JSONB,

    CONSTRAINT "bulk_batch_items_pkey" PRIMARY KEY ("batch_id", "item_index"),
    -- An item became a payout, or was refused before one existed (its answer kept as it was sent): never both.
    CONSTRAINT "bulk_batch_items_payout_or_refusal" CHECK (("payout_id" IS NULL) <> ("refusal" IS NULL))
);

-- CreateIndex
CREATE UNIQUE INDEX "bulk_batches_merchant_id_batch_id_key" ON "bulk_batches"("merchant_id", "batch_id");

-- CreateIndex
CREATE INDEX "bulk_batch_items_payout_id_idx" ON "bulk_batch_items"("payout_id");

-- AddForeignKey
ALTER TABLE "bulk_batches" ADD CONSTRAINT "bulk_batches_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_batch_items" ADD CONSTRAINT "bulk_batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "bulk_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_batch_items" ADD CONSTRAINT "bulk_batch_items_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
