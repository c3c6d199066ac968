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
