-- The values reversals and discrepancies need (docs/reconciliation.md). PostgreSQL lets a transaction add
-- an enum value but not use it before it commits, so the constraints and functions that use them come in
-- the next migration.

-- A paid payout that came back from the beneficiary's bank; FAILED to the merchant.
ALTER TYPE "payout_state" ADD VALUE 'REVERSED';
ALTER TYPE "failure_reason" ADD VALUE 'REVERSED_BY_BENEFICIARY_BANK';

-- PAID_OUT → MAIN_WALLET when a payout is reversed; MAIN_WALLET → PAID_OUT when an operator charges the
-- merchant for a payout the bank paid after we had failed it.
ALTER TYPE "ledger_entry_kind" ADD VALUE 'PAYOUT_REVERSAL';
ALTER TYPE "ledger_entry_kind" ADD VALUE 'PAYOUT_LATE_DEBIT';

-- The webhook that tells the merchant its payout was reversed.
ALTER TYPE "webhook_delivery_cause" ADD VALUE 'REVERSAL';
