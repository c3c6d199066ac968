-- A merchant's statement (GET /api/statement; docs/api.md, "Statement") reads the legs of its MAIN_WALLET account
-- in time order, (created_at, id), the id breaking ties within a millisecond, and sums their amounts (the opening
-- balance, the balance before a page). With this index a page is one range read starting where the previous page
-- ended, and a sum a range read of the index alone (amount_paise is its last column for that), however long the
-- merchant's history.
--
-- It serves every read the (merchant_id, account) index served, whose columns are its first two (a merchant's
-- balances summed by account, a wallet credit found by its reference), so that index goes: each ledger leg keeps
-- one such index up to date, not two.
DROP INDEX "ledger_entries_merchant_id_account_idx";
CREATE INDEX "ledger_entries_statement_idx" ON "ledger_entries"("merchant_id", "account", "created_at", "id", "amount_paise");
