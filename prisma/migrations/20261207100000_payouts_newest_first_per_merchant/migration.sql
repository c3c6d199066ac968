-- A merchant's payout list (GET /api/payouts; docs/api.md, "Listing payouts") pages newest first by
-- (created_at, id), the id breaking ties between payouts accepted in the same millisecond. With this index a
-- page is one range read of the merchant's entries, starting where the previous page ended, however long the
-- merchant's history.
--
-- It serves every read the (merchant_id, created_at) index served, a range of one merchant's acceptance times
-- read in either direction (the support console's lists, the day page), so that index goes: each accepted
-- payout keeps one such index up to date, not two.
DROP INDEX "payouts_merchant_id_created_at_idx";
CREATE INDEX "payouts_merchant_id_created_at_id_idx" ON "payouts"("merchant_id", "created_at" DESC, "id" DESC);
