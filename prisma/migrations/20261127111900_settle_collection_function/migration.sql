-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/settle_collection.sql as it stood when this migration was written.
-- The current source of the SQL function settle_collection; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration settle_collection` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- settle_collection: a PENDING pay-in reaches its outcome (packages/db/src/repositories/collection-ingestion.ts,
-- recordCollection, which has decided under the collection's row lock that the report contradicts nothing).
-- It becomes p_status; a detail the final report leaves empty keeps what an earlier report said; a SUCCESS
-- credits the main wallet once through the ledger (COLLECTION_CREDIT, FUNDING → MAIN_WALLET, posted by
-- post_ledger_entry_or_abort: a posting that cannot be made aborts the statement, so the pay-in never
-- becomes SUCCESS without its money). Returns whether it moved (false: it was no longer PENDING).
CREATE OR REPLACE FUNCTION "settle_collection"(
    p_collection_id bigint,
    p_status collection_status,
    p_bank_reference text,
    p_payer_account text
)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v_merchant_id integer;
    v_amount_paise bigint;
BEGIN
    UPDATE collections c
       SET status = p_status,
           bank_reference = coalesce(nullif(p_bank_reference, ''), c.bank_reference),
           payer_account = coalesce(nullif(p_payer_account, ''), c.payer_account),
           credited_at = CASE WHEN p_status = 'SUCCESS' THEN now() END, updated_at = now()
     WHERE c.id = p_collection_id AND c.status = 'PENDING'
    RETURNING c.merchant_id, c.amount_paise INTO v_merchant_id, v_amount_paise;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF p_status = 'SUCCESS' THEN
        PERFORM post_ledger_entry_or_abort(v_merchant_id, 'COLLECTION_CREDIT', v_amount_paise, NULL, p_collection_id);
    END IF;
    RETURN true;
END;
$$;
