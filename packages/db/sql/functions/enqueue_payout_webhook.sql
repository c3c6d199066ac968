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
