-- A payout accepted for a merchant that queues when its balance is low (docs/api.md, "Queue if low
-- balance"): recorded, PENDING to the merchant, nothing reserved yet. PostgreSQL lets a transaction add an
-- enum value but not use it before it commits, so what uses it comes in the next migration.
ALTER TYPE "payout_state" ADD VALUE 'QUEUED' BEFORE 'ACCEPTED';
