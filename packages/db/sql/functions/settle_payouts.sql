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
-- the webhook delivery (enqueue_payout_webhook), so the notification can never be lost. The items are
-- settled in merchant order (then payout order), the order in which accept_payouts batches lock wallets, so
-- two batches can never wait for each other's wallet locks in a cycle. Returns one row per item that names a payout: its position
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
            webhook_delivery_id := enqueue_payout_webhook(v_merchant_id, v_payout_id, 'SETTLEMENT', 'settlement');
        END IF;
        RETURN NEXT;
    END LOOP;
END;
$$;
