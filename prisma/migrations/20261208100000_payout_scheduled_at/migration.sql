-- A payout may be scheduled for a later time (docs/api.md, "Scheduling a payout"): null sends it at once.
-- Its next_check_at starts at this time, so the sweeper finds a missed schedule by the index it already has.
ALTER TABLE "payouts" ADD COLUMN "scheduled_at" TIMESTAMPTZ(3);

-- accept_payouts and claim_payout_for_bank now return the payout's scheduled_at too: a new row type, so the
-- old functions go first (the next migration installs them again).
DROP FUNCTION "accept_payouts"(jsonb);
DROP FUNCTION "claim_payout_for_bank"(bigint, payout_state[], timestamptz, jsonb, jsonb, timestamptz, text);
