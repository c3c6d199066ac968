-- The current source of the SQL function cancel_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration cancel_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- cancel_payout: its merchant cancels a payout that no bank was sent (docs/api.md, "Cancelling a payout"). The
-- table of transitions' `cancel` rows (packages/domain/src/payout-transitions.ts): ACCEPTED (held through a
-- downtime or not yet claimed) or QUEUED for balance → FAILED with CANCELLED_BY_MERCHANT; an ACCEPTED payout's
-- reservation goes back to the main wallet (post_ledger_entry_or_abort), a queued one had nothing reserved;
-- the event, and the merchant told by webhook (enqueue_payout_webhook).
--
-- Under the payout's row lock, which the worker's claim (claim_payout_for_bank) takes too: a cancel and a
-- claim of one payout run one after the other, and the second sees what the first did — so exactly one of
-- them wins, and a payout a worker has claimed is never cancelled. Outcome: 'cancelled'; 'already-cancelled'
-- (a repeat: nothing changes, no second webhook); 'sent' (a bank has it or had it, or it was settled another
-- way: nothing changes); no row when the merchant has no payout with that TransactionID.
CREATE OR REPLACE FUNCTION "cancel_payout"(p_merchant_id integer, p_transaction_id text, p_actor text)
RETURNS TABLE (
    outcome text,
    payout_id bigint,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_id bigint;
    v_state payout_state;
    v_reason failure_reason;
    v_amount bigint;
BEGIN
    SELECT p.id, p.state, p.failure_reason, p.amount_paise INTO v_id, v_state, v_reason, v_amount
      FROM payouts p
     WHERE p.merchant_id = p_merchant_id AND p.transaction_id = p_transaction_id
       FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    payout_id := v_id;

    IF v_state = 'FAILED' AND v_reason = 'CANCELLED_BY_MERCHANT' THEN
        outcome := 'already-cancelled';
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_state NOT IN ('ACCEPTED', 'QUEUED') THEN
        outcome := 'sent';
        RETURN NEXT;
        RETURN;
    END IF;

    UPDATE payouts p
       SET state = 'FAILED', status = 'FAILED', failure_reason = 'CANCELLED_BY_MERCHANT',
           settled_at = now(), next_check_at = NULL, updated_at = now()
     WHERE p.id = v_id;
    IF v_state = 'ACCEPTED' THEN
        PERFORM post_ledger_entry_or_abort(p_merchant_id, 'PAYOUT_RELEASE', v_amount, v_id);
    END IF;
    INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
    VALUES (v_id, v_state, 'FAILED',
            CASE WHEN v_state = 'ACCEPTED'
                 THEN 'cancelled by its merchant before it was sent: the reservation is back in the main wallet'
                 ELSE 'cancelled by its merchant while queued for balance: nothing was reserved' END,
            p_actor);
    outcome := 'cancelled';
    webhook_delivery_id := enqueue_payout_webhook(p_merchant_id, v_id, 'SETTLEMENT', 'merchant cancel');
    RETURN NEXT;
END;
$$;
