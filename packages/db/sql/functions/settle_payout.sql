-- The current source of the SQL function settle_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration settle_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- settle_payout: the one settlement (packages/db/src/repositories/payout-transitions.ts, settleSuccess and
-- settleFailure). A function rather than a statement sent each time, so PostgreSQL plans it once per
-- connection instead of once per call (docs/performance.md, "The worker's statements").
--
-- Under the payout's row lock, only from a state in p_allowed: the terminal state (p_outcome, with its bank
-- reference or failure reason), the ledger entry that ends the reservation (p_entry, posted by
-- post_ledger_entry_or_abort: a posting that cannot be made aborts everything), the event, and — when the
-- merchant has a webhook endpoint — the webhook delivery, so the notification can never be lost. All of it
-- or none. Returns one row — whether it moved, the state before, the delivery recorded (or null) — or no
-- row for no such payout.
CREATE OR REPLACE FUNCTION "settle_payout"(
    p_payout_id bigint,
    p_outcome payout_state,
    p_allowed payout_state[],
    p_bank_reference text,
    p_failure_reason failure_reason,
    p_entry ledger_entry_kind,
    p_reason text,
    p_attempt integer,
    p_rail_answer jsonb,
    p_actor text
)
RETURNS TABLE (
    moved boolean,
    from_state text,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_merchant_id integer;
    v_amount_paise bigint;
    v_delivery_id bigint;
BEGIN
    SELECT p.state, p.merchant_id, p.amount_paise INTO v_from, v_merchant_id, v_amount_paise
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT (v_from = ANY(p_allowed)) THEN
        RETURN QUERY SELECT false, v_from::text, NULL::bigint;
        RETURN;
    END IF;

    UPDATE payouts p
       SET state = p_outcome, status = p_outcome::text::payout_status,
           bank_reference = p_bank_reference, failure_reason = p_failure_reason,
           settled_at = now(), next_check_at = NULL, updated_at = now()
     WHERE p.id = p_payout_id;
    PERFORM post_ledger_entry_or_abort(v_merchant_id, p_entry, v_amount_paise, p_payout_id);
    INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
    VALUES (p_payout_id, v_from, p_outcome, p_reason, p_attempt, p_rail_answer, p_actor);
    INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
    SELECT v_merchant_id, p_payout_id, 'SETTLEMENT', now(), 'settlement'
      FROM webhook_endpoints e WHERE e.merchant_id = v_merchant_id
    RETURNING id INTO v_delivery_id;

    RETURN QUERY SELECT true, v_from::text, v_delivery_id;
END;
$$;
