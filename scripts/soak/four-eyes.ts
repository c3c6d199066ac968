import { createConsoleUser, type PrismaClient } from '@payout/db';
import { hashPassword, newPassword } from '@payout/domain';
import { approveRequest, planWalletCredit, requestApproval, type Person } from '@payout/use-cases';

/**
 * The soak's operators, as a payout company staffs them: one who asks for money actions and one who
 * approves them (docs/operations.md, "Approvals"). Every credit and every statement application of the
 * soak goes through a request and a second person's approval.
 */
export const SOAK_MAKER = 'soak-finance';
export const SOAK_APPROVER = 'soak-approver';

const APPROVALS = { ttlMs: 60 * 60 * 1000, selfApproval: false };

export async function addSoakOperators(db: PrismaClient): Promise<void> {
  await createConsoleUser(db, {
    username: SOAK_MAKER,
    role: 'OPERATOR',
    passwordHash: await hashPassword(newPassword()),
  });
  await createConsoleUser(db, {
    username: SOAK_APPROVER,
    role: 'APPROVER',
    passwordHash: await hashPassword(newPassword()),
  });
}

const maker: Person = { username: SOAK_MAKER, role: 'OPERATOR', via: 'cli' };
const approver: Person = { username: SOAK_APPROVER, role: 'APPROVER', via: 'cli' };

/** Credits a merchant's main wallet as operators do: asked for by one person, approved by another. */
export async function creditWithApproval(
  db: PrismaClient,
  credit: { mid: string; amountPaise: bigint; reference: string },
): Promise<void> {
  const plan = await planWalletCredit({ db }, credit);
  if (plan.kind !== 'planned') throw new Error(`credit ${credit.reference} of ${credit.mid}: ${plan.kind}`);
  const asked = await requestApproval({ db, approvals: APPROVALS }, { planned: plan.planned, maker, reason: 'top-up' });
  if (asked.kind !== 'requested') throw new Error(`credit ${credit.reference}: ${asked.why}`);
  const decided = await approveRequest(
    { db, approvals: APPROVALS },
    { id: asked.request.id, by: approver, note: 'matched the bank transfer' },
  );
  if (decided.kind !== 'executed') throw new Error(`credit ${credit.reference} not executed: ${decided.kind}`);
}
