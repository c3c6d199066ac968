-- The events feed (GET /api/events; docs/api.md, "Events feed"): every event a webhook carries, each merchant's
-- in the order they were recorded, whether or not they could be sent.
--
-- An event is recorded once, by the outbox's writers: as its delivery when the merchant has somewhere to send it,
-- otherwise (no endpoint; for a downtime, no enabled endpoint) as an unsent event. Either way it takes its
-- `position` in its merchant's feed, 1, 2, 3, …, from a counter per merchant that stays locked until the
-- recording commits (assign_webhook_event_position, below), so an event becomes visible only after every event
-- before it. A replay sends an event already in the feed again and has no position. Everything is in this one
-- migration, so no event is recorded without its position while it is applied.

-- The last position given to an event of each merchant.
CREATE TABLE "webhook_event_positions" (
    "merchant_id" INTEGER NOT NULL,
    "last_position" BIGINT NOT NULL,

    CONSTRAINT "webhook_event_positions_pkey" PRIMARY KEY ("merchant_id")
);

ALTER TABLE "webhook_event_positions" ADD CONSTRAINT "webhook_event_positions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An event recorded for a merchant with nowhere to send it: numbered (sequence) and placed (position) as a
-- delivery would have been, so the feed lists it. A payout's settlement or reversal, or a downtime's start or end.
CREATE TABLE "unsent_webhook_events" (
    "merchant_id" INTEGER NOT NULL,
    "position" BIGINT NOT NULL,
    "payout_id" BIGINT,
    "downtime_id" BIGINT,
    "cause" "webhook_delivery_cause" NOT NULL,
    "sequence" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "unsent_webhook_events_pkey" PRIMARY KEY ("merchant_id", "position"),
    CONSTRAINT "unsent_webhook_events_one_subject" CHECK (("payout_id" IS NULL) <> ("downtime_id" IS NULL)),
    CONSTRAINT "unsent_webhook_events_cause_fits_subject" CHECK (
        CASE WHEN "downtime_id" IS NOT NULL THEN "cause" IN ('DOWNTIME_STARTED', 'DOWNTIME_RESOLVED')
             ELSE "cause" IN ('SETTLEMENT', 'REVERSAL') END)
);

ALTER TABLE "unsent_webhook_events" ADD CONSTRAINT "unsent_webhook_events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "unsent_webhook_events" ADD CONSTRAINT "unsent_webhook_events_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "unsent_webhook_events" ADD CONSTRAINT "unsent_webhook_events_downtime_id_fkey" FOREIGN KEY ("downtime_id") REFERENCES "bank_downtimes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE INDEX "unsent_webhook_events_payout_id_idx" ON "unsent_webhook_events"("payout_id");

-- Each merchant is told of each downtime's start and resolution once, sent or not.
CREATE UNIQUE INDEX "unsent_webhook_events_downtime_id_cause_merchant_id_key" ON "unsent_webhook_events"("downtime_id", "cause", "merchant_id");

-- The deliveries recorded so far are the merchants' events so far: placed in the order they were recorded.
ALTER TABLE "webhook_deliveries" ADD COLUMN "position" BIGINT;

UPDATE "webhook_deliveries" d
   SET "position" = placed."position"
  FROM (SELECT "id", row_number() OVER (PARTITION BY "merchant_id" ORDER BY "id") AS "position"
          FROM "webhook_deliveries" WHERE "cause" <> 'REPLAY') placed
 WHERE d."id" = placed."id";

INSERT INTO "webhook_event_positions" ("merchant_id", "last_position")
SELECT "merchant_id", max("position") FROM "webhook_deliveries" WHERE "position" IS NOT NULL GROUP BY "merchant_id";

ALTER TABLE "webhook_deliveries"
  ADD CONSTRAINT "webhook_deliveries_placed_unless_replay" CHECK (("position" IS NULL) = ("cause" = 'REPLAY'));

-- A page of the feed is a range of (merchant_id, position) here and in the unsent events' primary key.
CREATE UNIQUE INDEX "webhook_deliveries_merchant_id_position_key" ON "webhook_deliveries"("merchant_id", "position");

-- The outbox's writers record every event, and each is placed in its merchant's feed (as written by
-- `pnpm db:function-migration`, inside this migration so the tables, functions and triggers arrive together).

-- Installs packages/db/sql/functions/assign_webhook_event_position.sql as it stood when this migration was written.
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

-- Installs packages/db/sql/functions/enqueue_payout_webhook.sql as it stood when this migration was written.
-- The current source of the SQL function enqueue_payout_webhook; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration enqueue_payout_webhook` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- enqueue_payout_webhook: the one writer of the webhook outbox. Records a delivery of the payout's result,
-- due now, when its merchant has a webhook endpoint; returns its id, or NULL when there is no endpoint
-- (nowhere to deliver to). Without one the event is still recorded, as an unsent event, so that the merchant's
-- events feed lists every event (GET /api/events; docs/api.md, "Events feed"); a replay then records nothing.
-- Called inside the statement that changes the payout (settle_payouts, expire_queued_payouts, reverse_payout),
-- so the notification is recorded with the state change or not at all, and by an operator's replay
-- (packages/db/src/repositories/webhook-delivery-repository.ts, recordWebhookReplay). Its sequence is given by
-- assign_webhook_sequence (docs/webhooks.md), its place in the feed by assign_webhook_event_position.
-- p_merchant_id is the payout's merchant: the callers have it at hand, so the settlement's hot path reads no
-- row for it.
CREATE OR REPLACE FUNCTION "enqueue_payout_webhook"(
    p_merchant_id integer,
    p_payout_id bigint,
    p_cause webhook_delivery_cause,
    p_requested_by text
)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_delivery_id bigint;
BEGIN
    INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
    SELECT p_merchant_id, p_payout_id, p_cause, now(), p_requested_by
      FROM webhook_endpoints e WHERE e.merchant_id = p_merchant_id
    RETURNING id INTO v_delivery_id;
    IF v_delivery_id IS NULL AND p_cause <> 'REPLAY' THEN
        INSERT INTO unsent_webhook_events (merchant_id, payout_id, cause) VALUES (p_merchant_id, p_payout_id, p_cause);
    END IF;
    RETURN v_delivery_id;
END;
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
-- says what is open at any time (docs/webhooks.md, "Downtime webhooks"). Every other merchant (endpoint
-- disabled, or none) gets the event as an unsent event, so its events feed lists it all the same (GET /api/events;
-- docs/api.md, "Events feed"). Merchant by merchant, in merchant order: each event takes its merchant's place in
-- the feed, locked until commit (assign_webhook_event_position). Called inside the statement that opens or
-- resolves the downtime (packages/db/src/repositories/banks.ts), so the notices are recorded with it or not at
-- all. Each event's sequence is given by assign_webhook_sequence.
CREATE OR REPLACE FUNCTION "enqueue_downtime_webhooks"(
    p_downtime_id bigint,
    p_cause webhook_delivery_cause
)
RETURNS SETOF bigint
LANGUAGE plpgsql
AS $$
DECLARE
    m record;
    v_delivery_id bigint;
BEGIN
    FOR m IN
        SELECT mc.id, e.merchant_id IS NOT NULL AND e.disabled_at IS NULL AS enabled
          FROM merchants mc LEFT JOIN webhook_endpoints e ON e.merchant_id = mc.id
         ORDER BY mc.id
    LOOP
        IF m.enabled THEN
            INSERT INTO webhook_deliveries (merchant_id, downtime_id, cause, next_attempt_at, requested_by)
            VALUES (m.id, p_downtime_id, p_cause, now(), 'downtime')
            RETURNING id INTO v_delivery_id;
            RETURN NEXT v_delivery_id;
        ELSE
            INSERT INTO unsent_webhook_events (merchant_id, downtime_id, cause) VALUES (m.id, p_downtime_id, p_cause);
        END IF;
    END LOOP;
END;
$$;

-- Installs packages/db/sql/functions/expire_queued_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function expire_queued_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration expire_queued_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- expire_queued_payouts: fails the queued payouts (of one merchant, or of all when NULL) older than their
-- merchant's queue window. Nothing was reserved, so nothing moves; the merchant is told by webhook as for
-- any failed payout (enqueue_payout_webhook), in merchant order, as every statement recording events of several
-- merchants: each event holds its merchant's place in the events feed until commit
-- (assign_webhook_event_position). Returns how many failed.
CREATE OR REPLACE FUNCTION "expire_queued_payouts"(p_merchant_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    expired integer;
BEGIN
    WITH due AS (
        SELECT p.id, p.merchant_id
          FROM payouts p JOIN merchants m ON m.id = p.merchant_id
         WHERE p.state = 'QUEUED'
           AND (p_merchant_id IS NULL OR p.merchant_id = p_merchant_id)
           AND p.created_at < now() - make_interval(secs => m.queue_window_seconds)
         ORDER BY p.id
           FOR UPDATE OF p SKIP LOCKED
    ), failed AS (
        UPDATE payouts p
           SET state = 'FAILED', status = 'FAILED', failure_reason = 'INSUFFICIENT_BALANCE',
               settled_at = now(), next_check_at = NULL, updated_at = now()
          FROM due
         WHERE p.id = due.id AND p.state = 'QUEUED'
        RETURNING p.id, p.merchant_id
    ), event AS (
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        SELECT id, 'QUEUED', 'FAILED', 'queue window passed without enough balance; nothing was reserved', 'queue'
          FROM failed
    ), outbox AS MATERIALIZED (
        -- One row per failed payout (the delivery's id, or NULL without an endpoint); counted below, so every
        -- row is computed.
        SELECT enqueue_payout_webhook(f.merchant_id, f.id, 'SETTLEMENT', 'settlement') AS delivery_id
          FROM (SELECT merchant_id, id FROM failed ORDER BY merchant_id, id) f
    )
    SELECT count(*) INTO expired FROM outbox;
    RETURN expired;
END;
$$;

CREATE TRIGGER "webhook_deliveries_assign_event_position" BEFORE INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "assign_webhook_event_position"();

CREATE TRIGGER "unsent_webhook_events_assign_sequence" BEFORE INSERT ON "unsent_webhook_events"
  FOR EACH ROW EXECUTE FUNCTION "assign_webhook_sequence"();

CREATE TRIGGER "unsent_webhook_events_assign_event_position" BEFORE INSERT ON "unsent_webhook_events"
  FOR EACH ROW EXECUTE FUNCTION "assign_webhook_event_position"();
