-- The current source of the SQL function release_queued_after_credit; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration release_queued_after_credit` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- release_queued_after_credit: every leg that brings money into a main wallet releases that merchant's
-- queue (release_queued_payouts) when its transaction commits — deferred constraint trigger
-- ledger_credit_releases_queued_payouts on ledger_entries, so the wallet has moved by then whichever
-- statement wrote the leg.
CREATE OR REPLACE FUNCTION "release_queued_after_credit"()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM release_queued_payouts(NEW.merchant_id);
    RETURN NULL;
END;
$$;
