-- More doors lead through a second person (docs/operations.md, "Security model"): an operator's bulk batch,
-- adding a console user or changing a role, resetting another person's password, a merchant's IP
-- allow-list, and deciding a statement break that says money is missing.
ALTER TABLE "approval_requests" DROP CONSTRAINT "approval_requests_action_known";
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_action_known" CHECK (
  "action" IN ('wallet.credit', 'payout.resolve', 'discrepancy.resolve', 'statement.apply', 'token.issue',
               'statement.match', 'bulk.submit', 'user.add', 'user.role', 'user.password-reset',
               'merchant.ip-allowlist', 'statement.decide'));
