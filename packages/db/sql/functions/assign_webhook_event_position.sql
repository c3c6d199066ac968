-- The current source of the SQL function assign_webhook_event_position; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration assign_webhook_event_position` writes the
-- migration that installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts
-- fails while this file and the migrated database disagree.
--
-- assign_webhook_event_position: gives each event its place in its merchant's events feed (GET /api/events;
-- docs/api.md, "Events feed"). Triggers webhook_deliveries_assign_event_position and
-- unsent_webhook_events_assign_event_position, BEFORE INSERT: an event is recorded once, as its delivery or, with
-- nowhere to send it, as an unsent event, and either way it is placed here.
--
-- Positions are 1, 2, 3, … per merchant, from the merchant's row of webhook_event_positions, which stays locked
-- until the recording commits. So the next event of the merchant is placed only once the one before it has
-- committed (or rolled back, giving its number back): a reader who has seen position n has seen every position
-- below it, and nothing below n can appear later. A sequence's ids give no such promise, as they are taken in one
-- order and committed in another. The lock is why every statement recording events of several merchants does so in
-- merchant order (settle_payouts, expire_held_payouts, expire_queued_payouts, enqueue_downtime_webhooks): two of them
-- can then never wait for each other's merchants in a cycle. A replay (cause REPLAY) sends again an event already in
-- the feed and takes no place.
CREATE OR REPLACE FUNCTION "assign_webhook_event_position"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."cause" = 'REPLAY' THEN
    NEW."position" := NULL;
  ELSE
    INSERT INTO "webhook_event_positions" ("merchant_id", "last_position") VALUES (NEW."merchant_id", 1)
    ON CONFLICT ("merchant_id") DO UPDATE SET "last_position" = "webhook_event_positions"."last_position" + 1
    RETURNING "last_position" INTO NEW."position";
  END IF;
  RETURN NEW;
END
$$;
