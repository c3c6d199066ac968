-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/assign_webhook_sequence.sql as it stood when this migration was written.
-- The current source of the SQL function assign_webhook_sequence; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration assign_webhook_sequence` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- assign_webhook_sequence: numbers each subject's webhook events (trigger
-- webhook_deliveries_assign_sequence, BEFORE INSERT on webhook_deliveries; docs/webhooks.md, "Ordering").
--
-- The number is given when the event is recorded, whichever statement records it (the settlement, the
-- reversal, an operator's replay, a downtime opening or resolving), so it is given here, once, rather than in
-- each of them. A payout's events are numbered per payout; downtime events per merchant, across every bank
-- and mode, so a downtime's resolution ranks below the next downtime's start. The counter row is locked until
-- the recording commits, so two events of one subject can never share or swap numbers; a value the inserting
-- statement supplies is overwritten.
CREATE OR REPLACE FUNCTION "assign_webhook_sequence"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."payout_id" IS NOT NULL THEN
    INSERT INTO "webhook_sequences" ("payout_id", "last_sequence") VALUES (NEW."payout_id", 1)
    ON CONFLICT ("payout_id") DO UPDATE SET "last_sequence" = "webhook_sequences"."last_sequence" + 1
    RETURNING "last_sequence" INTO NEW."sequence";
  ELSE
    INSERT INTO "webhook_downtime_sequences" ("merchant_id", "last_sequence") VALUES (NEW."merchant_id", 1)
    ON CONFLICT ("merchant_id") DO UPDATE SET "last_sequence" = "webhook_downtime_sequences"."last_sequence" + 1
    RETURNING "last_sequence" INTO NEW."sequence";
  END IF;
  RETURN NEW;
END
$$;

-- Installs packages/db/sql/functions/enqueue_downtime_webhooks.sql as it stood when this migration was written.
-- The current source of the SQL function enqueue_downtime_webhooks; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration enqueue_downtime_webhooks` writes the migration
-- that installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts
-- fails while this file and the migrated database disagree.
--
-- enqueue_downtime_webhooks: the outbox's writer for a bank downtime, as enqueue_payout_webhook is for a
-- payout. Records one delivery of the downtime's event (DOWNTIME_STARTED or DOWNTIME_RESOLVED), due now, for
-- every merchant whose webhook endpoint is enabled, and returns their ids. An endpoint disabled now gets none:
-- a held notice of a bank's state would arrive stale once the endpoint is enabled again, and GET /api/downtimes
-- says what is open at any time (docs/webhooks.md, "Downtime webhooks"). Called inside the statement that opens
-- or resolves the downtime (packages/db/src/repositories/banks.ts), so the notices are recorded with it or not
-- at all. Each delivery's sequence is given by assign_webhook_sequence.
CREATE OR REPLACE FUNCTION "enqueue_downtime_webhooks"(
    p_downtime_id bigint,
    p_cause webhook_delivery_cause
)
RETURNS SETOF bigint
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN QUERY
    INSERT INTO webhook_deliveries (merchant_id, downtime_id, cause, next_attempt_at, requested_by)
    SELECT e.merchant_id, p_downtime_id, p_cause, now(), 'downtime'
      FROM webhook_endpoints e
     WHERE e.disabled_at IS NULL
     ORDER BY e.merchant_id
    RETURNING id;
END;
$$;
