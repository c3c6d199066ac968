-- A bank's downtime opening or resolving is told to every merchant with a webhook endpoint
-- (docs/webhooks.md, "Downtime webhooks"). Enum values of their own migration: a value added in a
-- transaction cannot be used before it commits, and the next migration's constraints name them.
ALTER TYPE "webhook_delivery_cause" ADD VALUE 'DOWNTIME_STARTED';
ALTER TYPE "webhook_delivery_cause" ADD VALUE 'DOWNTIME_RESOLVED';
