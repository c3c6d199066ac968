-- A payout held through a downtime of every bank serving its mode, past its merchant's hold window, fails
-- with this reason: nothing was sent, so sending it again is safe (CONTRACT.md, "Several banks").
ALTER TYPE "failure_reason" ADD VALUE 'BANK_DOWNTIME';
