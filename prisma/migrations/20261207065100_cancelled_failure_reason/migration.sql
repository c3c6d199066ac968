-- A payout its merchant cancelled before it was sent to any bank (docs/api.md, "Cancelling a payout"). Its own
-- migration: PostgreSQL lets a transaction add an enum value but not use it before it commits, and the
-- function that cancels comes in the next migration.
ALTER TYPE "failure_reason" ADD VALUE 'CANCELLED_BY_MERCHANT';
