-- A merchant's credentials reach the merchant alone (docs/operations.md, "A merchant's token and webhook
-- secret"). A new merchant is a request a second person approves, registering the digest of a token the
-- merchant made itself.
ALTER TABLE "approval_requests" DROP CONSTRAINT "approval_requests_action_known";
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_action_known" CHECK (
  "action" IN ('wallet.credit', 'payout.resolve', 'discrepancy.resolve', 'statement.apply', 'token.issue',
               'statement.match', 'bulk.submit', 'user.add', 'user.role', 'user.password-reset',
               'merchant.ip-allowlist', 'statement.decide', 'merchant.create'));

-- A webhook endpoint that staff registered has no signing secret until the merchant fetches one through its
-- own API. Until then the endpoint is disabled, so its deliveries are held: never sent unsigned, never given up.
ALTER TABLE "webhook_endpoints"
  ALTER COLUMN "signing_secret" DROP NOT NULL,
  ALTER COLUMN "secret_prefix" DROP NOT NULL;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_signed_or_held" CHECK (
  ("signing_secret" IS NULL) = ("secret_prefix" IS NULL)
  AND ("signing_secret" IS NOT NULL OR "disabled_at" IS NOT NULL));
