-- The current source of the SQL function transition_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration transition_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- transition_payout: the worker's non-terminal moves — the claim before a submit, an inquiry's claim, "ask
-- again later", the hand-over to manual review (packages/db/src/repositories/payout-transitions.ts,
-- transitionPayout). A function rather than a statement sent each time, so PostgreSQL plans it once per
-- connection instead of once per call (docs/performance.md, "The worker's statements").
--
-- Under the payout's row lock: if its state is one of p_allowed (the state machine's table, narrowed by the
-- caller) and, when an inquiry is claimed, exactly p_claim_inquiry − 1 inquiries were made, it moves to p_to
-- with its counters and next check, and the move is recorded in payout_events. Returns one row — whether it
-- moved, the state before, and the payout's work columns (the bank it is with included) as they now stand — or
-- no row for no such payout.
CREATE OR REPLACE FUNCTION "transition_payout"(
    p_payout_id bigint,
    p_to payout_state,
    p_allowed payout_state[],
    p_next_check_at timestamptz,
    p_increment_submit_attempts boolean,
    p_claim_inquiry integer,
    p_reason text,
    p_attempt integer,
    p_rail_answer jsonb,
    p_actor text
)
RETURNS TABLE (
    moved boolean,
    from_state text,
    id bigint,
    merchant_id integer,
    mode text,
    amount_paise bigint,
    ack_no text,
    state text,
    beneficiary_account text,
    beneficiary_ifsc text,
    beneficiary_name text,
    submit_attempts integer,
    inquiry_attempts integer,
    next_check_at timestamptz,
    created_at timestamptz,
    bank text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_inquiries integer;
    v_moved boolean := false;
BEGIN
    SELECT p.state, p.inquiry_attempts INTO v_from, v_inquiries
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_from = ANY(p_allowed) AND (p_claim_inquiry IS NULL OR v_inquiries = p_claim_inquiry - 1) THEN
        UPDATE payouts p
           SET state = p_to,
               next_check_at = p_next_check_at,
               submit_attempts = p.submit_attempts + CASE WHEN p_increment_submit_attempts THEN 1 ELSE 0 END,
               inquiry_attempts = coalesce(p_claim_inquiry, p.inquiry_attempts),
               updated_at = now()
         WHERE p.id = p_payout_id;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
        VALUES (p_payout_id, v_from, p_to, p_reason, p_attempt, p_rail_answer, p_actor);
        v_moved := true;
    END IF;

    RETURN QUERY
    SELECT v_moved, v_from::text, p.id, p.merchant_id, p.mode::text, p.amount_paise, p.ack_no::text, p.state::text,
           p.beneficiary_account::text, p.beneficiary_ifsc::text, p.beneficiary_name::text, p.submit_attempts,
           p.inquiry_attempts, p.next_check_at::timestamptz, p.created_at::timestamptz, p.bank::text
      FROM payouts p WHERE p.id = p_payout_id;
END;
$$;
