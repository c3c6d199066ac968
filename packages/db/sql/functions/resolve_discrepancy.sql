-- The current source of the SQL function resolve_discrepancy; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration resolve_discrepancy` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- resolve_discrepancy: an operator's resolution of one open discrepancy, with the ledger action the resolution
-- has (docs/reconciliation.md; packages/db/src/repositories/discrepancy-repository.ts, resolveDiscrepancyIn,
-- which checks under the same lock that the resolution is one of the discrepancy kind's):
-- - debit-merchant: the merchant is charged after all (PAYOUT_LATE_DEBIT, MAIN_WALLET → PAID_OUT), with an
--   event on the payout;
-- - reverse: the payout is reversed (reverse_payout, from a state in p_reversible_from);
-- - credit-payin: the pay-in recorded FAILED becomes SUCCESS and credits the main wallet once
--   (COLLECTION_CREDIT);
-- - any other resolution posts nothing.
-- Under the discrepancy's row lock, the money, the subject's state and the discrepancy's RESOLVED move
-- together or not at all. Returns one row: outcome 'resolved' (posted says whether money moved),
-- 'not-found', 'already-resolved', or a refusal that changed nothing — 'insufficient' (the main wallet cannot
-- cover the late debit), 'duplicate' (the merchant was already charged), 'payout-not-reversible' or
-- 'payin-not-failed' (subject_state says what the payout or the pay-in is).
CREATE OR REPLACE FUNCTION "resolve_discrepancy"(
    p_id bigint,
    p_resolution text,
    p_note text,
    p_actor text,
    p_reversible_from payout_state[]
)
RETURNS TABLE (
    outcome text,
    posted boolean,
    subject_state text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_status discrepancy_status;
    v_payout_id bigint;
    v_collection_id bigint;
    v_reason text;
    v_merchant_id integer;
    v_amount_paise bigint;
    v_posting text;
    v_reversal record;
BEGIN
    posted := false;
    subject_state := NULL;
    SELECT d.status, d.payout_id, d.collection_id INTO v_status, v_payout_id, v_collection_id
      FROM discrepancies d WHERE d.id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        outcome := 'not-found';
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_status = 'RESOLVED' THEN
        outcome := 'already-resolved';
        RETURN NEXT;
        RETURN;
    END IF;
    v_reason := format('discrepancy %s resolved: %s', p_id, p_note);

    IF p_resolution = 'debit-merchant' THEN
        SELECT p.merchant_id, p.amount_paise INTO v_merchant_id, v_amount_paise FROM payouts p WHERE p.id = v_payout_id;
        v_posting := post_ledger_entry(v_merchant_id, 'PAYOUT_LATE_DEBIT', v_amount_paise, v_payout_id);
        IF v_posting <> 'posted' THEN
            outcome := v_posting;
            RETURN NEXT;
            RETURN;
        END IF;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        SELECT p.id, p.state, p.state, v_reason || ' (merchant charged: paid at the bank after it failed here)', p_actor
          FROM payouts p WHERE p.id = v_payout_id;
        posted := true;
    ELSIF p_resolution = 'reverse' THEN
        SELECT * INTO v_reversal
          FROM reverse_payout(v_payout_id, p_reversible_from, v_reason || ' (reported by operator)', NULL, NULL,
                              p_actor, 'reversal:operator');
        IF NOT v_reversal.moved THEN
            outcome := 'payout-not-reversible';
            subject_state := v_reversal.from_state;
            RETURN NEXT;
            RETURN;
        END IF;
        posted := true;
    ELSIF p_resolution = 'credit-payin' THEN
        UPDATE collections c SET status = 'SUCCESS', credited_at = now(), updated_at = now()
         WHERE c.id = v_collection_id AND c.status = 'FAILED'
        RETURNING c.merchant_id, c.amount_paise INTO v_merchant_id, v_amount_paise;
        IF NOT FOUND THEN
            outcome := 'payin-not-failed';
            SELECT c.status::text INTO subject_state FROM collections c WHERE c.id = v_collection_id;
            RETURN NEXT;
            RETURN;
        END IF;
        PERFORM post_ledger_entry_or_abort(v_merchant_id, 'COLLECTION_CREDIT', v_amount_paise, NULL, v_collection_id);
        posted := true;
    END IF;

    UPDATE discrepancies d
       SET status = 'RESOLVED', resolution = p_resolution, resolution_note = p_note, resolved_by = p_actor,
           resolved_at = now()
     WHERE d.id = p_id;
    outcome := 'resolved';
    RETURN NEXT;
END;
$$;
