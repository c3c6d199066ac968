-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/settle_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function settle_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration settle_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- settle_payouts: the one settlement, for one payout or a batch in one round trip and one commit
-- (packages/db/src/repositories/payout-transitions.ts, settlePayouts; the worker's concurrent jobs share it
-- through apps/worker/src/coalescing-settler.ts). A function rather than a statement sent each time, so
-- PostgreSQL plans it once per connection instead of once per call (docs/performance.md, "The worker's
-- statements").
--
-- Each item of p_items is one settlement: payout_id, outcome (SUCCESS or FAILED), allowed (the states it may
-- happen from), bank_reference or failure_reason, entry (the ledger entry that ends the reservation),
-- and the event's reason, attempt, rail_answer and actor. Under the payout's row lock, only from an
-- allowed state: the terminal state, the ledger entry (posted by post_ledger_entry_or_abort: a posting that
-- cannot be made aborts the whole statement), the event, and — when the merchant has a webhook endpoint —
-- the webhook delivery, so the notification can never be lost. The items are settled in merchant order
-- (then payout order), the order in which accept_payouts batches lock wallets, so two batches can never
-- wait for each other's wallet locks in a cycle. Returns one row per item that names a payout: its position
-- in p_items (from 1), whether it moved, the state before, and the delivery recorded (or null).
CREATE OR REPLACE FUNCTION "settle_payouts"(p_items jsonb)
RETURNS TABLE (
    item integer,
    moved boolean,
    from_state text,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    i record;
    v_payout_id bigint;
    v_outcome payout_state;
    v_from payout_state;
    v_merchant_id integer;
    v_amount_paise bigint;
BEGIN
    FOR i IN
        SELECT e.n, e.value AS v
          FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n)
          LEFT JOIN payouts p ON p.id = (e.value->>'payout_id')::bigint
         ORDER BY p.merchant_id, (e.value->>'payout_id')::bigint, e.n
    LOOP
        v_payout_id := (i.v->>'payout_id')::bigint;
        v_outcome := (i.v->>'outcome')::payout_state;
        SELECT p.state, p.merchant_id, p.amount_paise INTO v_from, v_merchant_id, v_amount_paise
          FROM payouts p WHERE p.id = v_payout_id FOR NO KEY UPDATE;
        CONTINUE WHEN NOT FOUND;

        item := i.n;
        from_state := v_from::text;
        webhook_delivery_id := NULL;
        moved := v_from = ANY(ARRAY(SELECT jsonb_array_elements_text(i.v->'allowed'))::payout_state[]);
        IF moved THEN
            UPDATE payouts p
               SET state = v_outcome, status = v_outcome::text::payout_status,
                   bank_reference = i.v->>'bank_reference', failure_reason = (i.v->>'failure_reason')::failure_reason,
                   settled_at = now(), next_check_at = NULL, updated_at = now()
             WHERE p.id = v_payout_id;
            PERFORM post_ledger_entry_or_abort(v_merchant_id, (i.v->>'entry')::ledger_entry_kind, v_amount_paise,
                                               v_payout_id);
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
            VALUES (v_payout_id, v_from, v_outcome, i.v->>'reason', (i.v->>'attempt')::integer,
                    nullif(i.v->'rail_answer', 'null'::jsonb), i.v->>'actor');
            INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
            SELECT v_merchant_id, v_payout_id, 'SETTLEMENT', now(), 'settlement'
              FROM webhook_endpoints e WHERE e.merchant_id = v_merchant_id
            RETURNING id INTO webhook_delivery_id;
        END IF;
        RETURN NEXT;
    END LOOP;
END;
$$;

-- Installs packages/db/sql/functions/transition_payout.sql as it stood when this migration was written.
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
-- moved, the state before, and the payout's work columns as they now stand — or no row for no such payout.
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
    created_at timestamptz
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
           p.inquiry_attempts, p.next_check_at::timestamptz, p.created_at::timestamptz
      FROM payouts p WHERE p.id = p_payout_id;
END;
$$;
