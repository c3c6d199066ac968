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
