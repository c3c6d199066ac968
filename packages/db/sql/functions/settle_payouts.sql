-- The current source of the SQL function settle_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration settle_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- settle_payouts: one settlement or a batch of them in one round trip and one commit
-- (packages/db/src/repositories/payout-transitions.ts, settlePayouts). Each item is settle_payout's
-- parameters as a JSON object; each is settled by settle_payout, so the rules of a settlement live there
-- alone. The items are settled in merchant order (then payout order), the order in which accept_payouts
-- batches lock wallets, so two batches can never wait for each other's wallet locks in a cycle.
-- Returns one row per item that names a payout, with the item's position (1-based) in p_items.
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
    r record;
BEGIN
    FOR i IN
        SELECT e.n, e.value AS v
          FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n)
          LEFT JOIN payouts p ON p.id = (e.value->>'payout_id')::bigint
         ORDER BY p.merchant_id, (e.value->>'payout_id')::bigint, e.n
    LOOP
        FOR r IN
            SELECT * FROM settle_payout(
                (i.v->>'payout_id')::bigint, (i.v->>'outcome')::payout_state,
                ARRAY(SELECT jsonb_array_elements_text(i.v->'allowed'))::payout_state[],
                i.v->>'bank_reference', (i.v->>'failure_reason')::failure_reason, (i.v->>'entry')::ledger_entry_kind,
                i.v->>'reason', (i.v->>'attempt')::integer, nullif(i.v->'rail_answer', 'null'::jsonb), i.v->>'actor')
        LOOP
            item := i.n;
            moved := r.moved;
            from_state := r.from_state;
            webhook_delivery_id := r.webhook_delivery_id;
            RETURN NEXT;
        END LOOP;
    END LOOP;
END;
$$;
