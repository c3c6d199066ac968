-- An operator's bulk batch shows its approver, line by line, whether the merchant has paid that beneficiary
-- before (docs/operations.md, "Bulk payouts from a file"): up to 5,000 look-ups by merchant and account,
-- which without this index would read the merchant's whole payout history.
CREATE INDEX "payouts_merchant_id_beneficiary_account_idx" ON "payouts"("merchant_id", "beneficiary_account");
