import { createConsoleUser, issuePersonalCredential, type PrismaClient } from '@payout/db';
import { formatRupees, hashPassword, newPassword } from '@payout/domain';
import { AdminRefusal, createAdminClient } from '@payout/cli';

/**
 * The soak's operators, as a payout company staffs them: one who asks for money actions and one who
 * approves them (docs/operations.md, "Approvals"), each acting through the admin listener with a personal
 * API key of their own ("Security model"). Every credit and every statement application of the soak goes
 * through a request and a second person's approval.
 */
export const SOAK_MAKER = 'soak-finance';
export const SOAK_APPROVER = 'soak-approver';

/** The soak's two people's keys, as each would create theirs on /console/keys. */
export interface SoakOperators {
  makerKey: string;
  approverKey: string;
}

export async function addSoakOperators(db: PrismaClient): Promise<SoakOperators> {
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
  const key = async (username: string) =>
    (await issuePersonalCredential(db, { username, kind: 'API_KEY', label: 'soak' })).token;
  return { makerKey: await key(SOAK_MAKER), approverKey: await key(SOAK_APPROVER) };
}

/**
 * Credits a merchant's main wallet as operators do: asked for by one person with their key, approved by
 * another with theirs, on whichever of the soak's admin listeners answers (the soak kills APIs).
 */
export async function creditWithApproval(
  adminUrls: string[],
  operators: SoakOperators,
  credit: { mid: string; amountPaise: bigint; reference: string },
): Promise<void> {
  const asked = await onAnyListener(adminUrls, operators.makerKey, (admin) =>
    admin.post<{ approval?: { id: string }; credit?: { credited: boolean } }>(
      `/admin/merchants/${credit.mid}/credits`,
      {
        amount: formatRupees(credit.amountPaise),
        reference: credit.reference,
        why: 'top-up',
      },
    ),
  );
  // Asked again after a listener died mid-answer, and the first request was approved meanwhile: it is done.
  if (asked.credit) return;
  const id = asked.approval?.id;
  if (id === undefined) throw new Error(`credit ${credit.reference} of ${credit.mid} made no request`);
  const decided = await onAnyListener(adminUrls, operators.approverKey, (admin) =>
    admin.post<{ approval: { state: string } }>(`/admin/approvals/${id}/approve`, {
      note: 'matched the bank transfer',
    }),
  );
  if (decided.approval.state !== 'EXECUTED') {
    throw new Error(`credit ${credit.reference} not executed: ${decided.approval.state}`);
  }
}

/**
 * Sends one person's request to the first admin listener that answers: one that is down (killed by a
 * fault) is skipped; an answer, even a refusal, is final.
 */
async function onAnyListener<T>(
  adminUrls: string[],
  credential: string,
  send: (admin: ReturnType<typeof createAdminClient>) => Promise<T>,
): Promise<T> {
  let unanswered: unknown;
  for (const url of adminUrls) {
    try {
      return await send(createAdminClient({ url, credential, timeoutMs: 30_000 }));
    } catch (error) {
      if (error instanceof AdminRefusal) throw error;
      unanswered = error;
    }
  }
  throw unanswered instanceof Error ? unanswered : new Error('no admin listener answered');
}
