-- A delivery kept, not attempted, while its merchant's endpoint is disabled (docs/webhooks.md, "An endpoint
-- that keeps failing"). PostgreSQL lets a transaction add an enum value but not use it before it commits, so
-- what uses it comes in the next migration.
ALTER TYPE "webhook_delivery_status" ADD VALUE 'HELD';
