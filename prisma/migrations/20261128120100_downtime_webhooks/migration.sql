-- Downtime webhooks (docs/webhooks.md, "Downtime webhooks"): a delivery in the outbox is about one subject,
-- a payout (its result) or a bank downtime (started or resolved), never both and never neither.
ALTER TABLE "webhook_deliveries"
  ALTER COLUMN "payout_id" DROP NOT NULL,
  ADD COLUMN "downtime_id" BIGINT,
  ADD CONSTRAINT "webhook_deliveries_one_subject" CHECK (("payout_id" IS NULL) <> ("downtime_id" IS NULL)),
  ADD CONSTRAINT "webhook_deliveries_cause_fits_subject"
    CHECK (("downtime_id" IS NOT NULL) = ("cause" IN ('DOWNTIME_STARTED', 'DOWNTIME_RESOLVED')));

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_downtime_id_fkey" FOREIGN KEY ("downtime_id") REFERENCES "bank_downtimes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Each merchant is told of each downtime's start and resolution once.
CREATE UNIQUE INDEX "webhook_deliveries_downtime_id_cause_merchant_id_key" ON "webhook_deliveries"("downtime_id", "cause", "merchant_id");

-- The last sequence number given to a downtime delivery of each merchant. Downtime events are numbered per
-- merchant, not per downtime: a receiver keeps the highest number applied per bank and mode, and a
-- downtime's resolution must rank below the next downtime's start of the same bank and mode.
CREATE TABLE "webhook_downtime_sequences" (
    "merchant_id" INTEGER NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "webhook_downtime_sequences_pkey" PRIMARY KEY ("merchant_id")
);

ALTER TABLE "webhook_downtime_sequences" ADD CONSTRAINT "webhook_downtime_sequences_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE UNIQUE INDEX "webhook_deliveries_downtime_sequence_per_merchant" ON "webhook_deliveries"("merchant_id", "sequence")
  WHERE "downtime_id" IS NOT NULL;
