import type { ApprovalAction } from '@payout/domain';
import { walletCredit } from '../credit-wallet.js';
import { tokenIssue } from '../merchant-tokens.js';
import { merchantCreate } from '../merchant-onboarding.js';
import { ipAllowlistChange } from '../merchant-ip-allowlist.js';
import { discrepancyResolution } from '../resolve-discrepancy.js';
import { manualResolution } from '../resolve-manual-review.js';
import { statementApplication } from '../apply-statement.js';
import { statementBreakDecision, statementLineMatch } from '../match-statement-line.js';
import { passwordReset, roleChange, userAdd } from '../people-changes.js';
import { operatorBulkBatch } from '../intake/operator-bulk-batch.js';
import { merchantOwnerEnroll } from '../merchant-people/merchant-owner.js';
import type { MoneyAction } from './money-action.js';

// Every money action, by the name its requests carry: an action missing here, or filed under another
// name, does not compile.
const MONEY_ACTIONS = {
  'wallet.credit': walletCredit,
  'payout.resolve': manualResolution,
  'discrepancy.resolve': discrepancyResolution,
  'statement.apply': statementApplication,
  'token.issue': tokenIssue,
  'statement.match': statementLineMatch,
  'statement.decide': statementBreakDecision,
  'user.add': userAdd,
  'user.role': roleChange,
  'user.password-reset': passwordReset,
  'bulk.submit': operatorBulkBatch,
  'merchant.ip-allowlist': ipAllowlistChange,
  'merchant.create': merchantCreate,
  'merchant-owner.enroll': merchantOwnerEnroll,
} satisfies { [A in ApprovalAction]: MoneyAction<unknown> & { action: A } };

export function moneyActionOf(action: ApprovalAction): MoneyAction<unknown> {
  return MONEY_ACTIONS[action];
}
