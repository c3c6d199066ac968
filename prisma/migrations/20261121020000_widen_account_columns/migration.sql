-- A UPI address may be 2–256 characters, "@", then a 2–64 letter handle: up to 321 characters in all
-- (CONTRACT.md). 256 was too short for the longest valid address.

-- AlterTable
ALTER TABLE "payouts" ALTER COLUMN "beneficiary_account" SET DATA TYPE VARCHAR(321);

-- AlterTable
ALTER TABLE "collections" ALTER COLUMN "payer_account" SET DATA TYPE VARCHAR(321);
