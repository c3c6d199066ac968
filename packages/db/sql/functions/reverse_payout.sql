-- The current source of the SQL function reverse_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration reverse_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- reverse_payout: a paid payout came back from the beneficiary's bank (docs/api.md, "Payout results";
-- packages/db/src/repositories/payout-transitions.ts, reversePayout). Under the payout's row lock, only from
-- a state in p_allowed (the state machine's, narrowed by the caller): it becomes REVERSED — FAILED to the
-- merchant, its UTR kept — the amount returns to the main wallet through the ledger (PAYOUT_REVERSAL,
-- PAID_OUT → MAIN_WALLET, posted by post_ledger_entry_or_abort: a posting that cannot be made aborts the
-- statement), the move is recorded in payout_events, and a REVERSAL webhook delivery is recorded
-- (enqueue_payout_webhook) when the merchant has an endpoint. Happens at most once: the ledger's and the
-- outbox's unique constraints back the state check up. Returns one row: whether it moved, the state before
-- (NULL: no such payout) and the delivery recorded (or NULL).
CREATE OR REPLACE FUNCTION "reverse_payout"(
    p_payout_id bigint,
    p_allowed payout_state[],
    p_reason text,
    p_attempt integer,
    p_rail_answer jsonb,
    p_actor text,
    p_requested_by text
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
BEGIN
    moved := false;
    from_state := NULL;
    webhook_delivery_id := NULL;
    SELECT p.state, p.merchant_id, p.amount_paise INTO v_from, v_merchant_id, v_amount_paise
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF FOUND THEN
        from_state := v_from::text;
        moved := v_from = ANY(p_allowed);
    END IF;
    IF moved THEN
        UPDATE payouts p
           SET state = 'REVERSED', status = 'FAILED', failure_reason = 'REVERSED_BY_BENEFICIARY_BANK',
               next_check_at = NULL, updated_at = now()
         WHERE p.id = p_payout_id;
        PERFORM post_ledger_entry_or_abort(v_merchant_id, 'PAYOUT_REVERSAL', v_amount_paise, p_payout_id);
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
        VALUES (p_payout_id, v_from, 'REVERSED', p_reason, p_attempt, p_rail_answer, p_actor);
        webhook_delivery_id := enqueue_payout_webhook(v_merchant_id, p_payout_id, 'REVERSAL', p_requested_by);
    END IF;
    RETURN NEXT;
END;
$$;
