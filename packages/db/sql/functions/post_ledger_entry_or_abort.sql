-- The current source of the SQL function post_ledger_entry_or_abort; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration post_ledger_entry_or_abort` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- post_ledger_entry_or_abort: post_ledger_entry for a movement that must happen together with the state
-- change that causes it (settle_payouts, reverse_payout, resolve_discrepancy, settle_collection):
-- anything but 'posted' aborts the whole statement, so the state never moves without its money.
-- Its parameters are post_ledger_entry's.
CREATE OR REPLACE FUNCTION "post_ledger_entry_or_abort"(
    p_merchant_id integer, p_kind ledger_entry_kind, p_amount_paise bigint,
    p_payout_id bigint DEFAULT NULL, p_collection_id bigint DEFAULT NULL, p_reference text DEFAULT NULL
)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_result text;
BEGIN
    v_result := post_ledger_entry(p_merchant_id, p_kind, p_amount_paise, p_payout_id, p_collection_id, p_reference);
    IF v_result <> 'posted' THEN
        RAISE EXCEPTION 'ledger entry % of % paise for merchant % (payout %) not posted: %',
            p_kind, p_amount_paise, p_merchant_id, p_payout_id, v_result USING ERRCODE = 'check_violation';
    END IF;
    RETURN v_result;
END;
$$;
