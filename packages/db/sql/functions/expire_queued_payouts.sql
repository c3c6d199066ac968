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
