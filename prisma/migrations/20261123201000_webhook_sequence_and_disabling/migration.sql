-- Webhooks merchants can trust (docs/webhooks.md): every delivery carries a sequence number that rises with
-- each event of one payout, and an endpoint that fails for a delivery's whole retry window is disabled, its
-- deliveries kept until an operator enables it again.

-- The last sequence number given to a delivery of each payout.
CREATE TABLE "webhook_sequences" (
    "payout_id" BIGINT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "webhook_sequences_pkey" PRIMARY KEY ("payout_id")
);

ALTER TABLE "webhook_sequences" ADD CONSTRAINT "webhook_sequences_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "webhook_deliveries" ADD COLUMN "sequence" INTEGER;
-- The retry window runs from here: when the delivery was recorded, or when its endpoint was enabled again.
ALTER TABLE "webhook_deliveries" ADD COLUMN "window_starts_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Deliveries recorded before this migration: numbered in the order they were recorded, which is the order
-- of their ids.
UPDATE "webhook_deliveries" d
   SET "sequence" = n."sequence", "window_starts_at" = d."created_at"
  FROM (SELECT "id", row_number() OVER (PARTITION BY "payout_id" ORDER BY "id")::int AS "sequence"
          FROM "webhook_deliveries") n
 WHERE n."id" = d."id";
INSERT INTO "webhook_sequences" ("payout_id", "last_sequence")
SELECT "payout_id", max("sequence") FROM "webhook_deliveries" GROUP BY "payout_id";

ALTER TABLE "webhook_deliveries" ALTER COLUMN "sequence" SET NOT NULL;
CREATE UNIQUE INDEX "webhook_deliveries_payout_id_sequence_key" ON "webhook_deliveries"("payout_id", "sequence");

-- The number is given when the event is recorded, whichever statement records it (the settlement, the
-- reversal, an operator's replay), so it is given here, once, rather than in each of them. The counter row
-- is locked until the recording commits, so two events of one payout can never share or swap numbers; a
-- value the inserting statement supplies is overwritten.
CREATE FUNCTION "assign_webhook_sequence"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_sequences" ("payout_id", "last_sequence") VALUES (NEW."payout_id", 1)
  ON CONFLICT ("payout_id") DO UPDATE SET "last_sequence" = "webhook_sequences"."last_sequence" + 1
  RETURNING "last_sequence" INTO NEW."sequence";
  RETURN NEW;
END
$$;

CREATE TRIGGER "webhook_deliveries_assign_sequence" BEFORE INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "assign_webhook_sequence"();

-- Set when the endpoint failed a delivery for its whole retry window: nothing is sent to it until an
-- operator enables it again (`pnpm cli webhook enable`).
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" TIMESTAMPTZ(3);
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_reason" VARCHAR(500);

-- A held delivery is not finished: it waits for its endpoint to be enabled again.
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_finished_when_final",
    ADD CONSTRAINT "webhook_deliveries_finished_when_final" CHECK (("status" IN ('PENDING', 'HELD')) = ("finished_at" IS NULL));

-- The sweeper looks for held deliveries of endpoints enabled again at every sweep, and the console lists
-- them: few rows, found without reading the delivered ones.
CREATE INDEX "webhook_deliveries_held_idx" ON "webhook_deliveries"("merchant_id") WHERE "status" = 'HELD';
