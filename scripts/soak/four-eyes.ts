import type { PrismaClient } from '@payout/db';
import { formatRupees, totpCode, totpStepAt } from '@payout/domain';
import { setUpFirstApprover } from '@payout/use-cases';
import { AdminRefusal, createAdminClient } from '@payout/cli';

/**
 * The soak's operators, as a payout company staffs a new installation (docs/operations.md, "A new
 * installation"): `setup` makes the first approver, who enrolls; a second approver and a finance operator
 * each open their own enrollment and are added; everyone signs in as themselves. Every credit and statement
 * application of the soak is then asked by finance and approved by an approver on a code from their
 * authenticator (docs/operations.md, "Approvals", "Second factor").
 */
export const SOAK_MAKER = 'soak-finance';
export const SOAK_APPROVER = 'soak-approver';
const SOAK_SECOND_APPROVER = 'soak-approver-2';

/** The soak's people: each one's CLI sign-in, and the approver's authenticator. */
export interface SoakOperators {
  makerKey: string;
  approverKey: string;
  /** A code of the approver's authenticator that has not been used: the next step's, waited for if need be. */
  approverCode(): Promise<string>;
}

interface Enrolled {
  username: string;
  password: string;
  seed: string;
  recoveryCodes: string[];
  lastStep: number;
}

export async function addSoakOperators(db: PrismaClient, adminUrl: string): Promise<SoakOperators> {
  const made = await setUpFirstApprover({ db }, { username: SOAK_APPROVER, runBy: 'soak' });
  if (made.kind !== 'made') throw new Error(`the soak's database was set up before (${made.kind})`);
  const approver = await enroll(adminUrl, SOAK_APPROVER, made.secret);
  const approverKey = await signIn(adminUrl, approver);
  // In setup, the first approver adds people alone, on a code of theirs.
  const add = async (username: string, role: 'approver' | 'operator'): Promise<Enrolled> => {
    const opened = await publicPost<{ secret: string; fingerprint: string }>(adminUrl, '/admin/enrollments', {
      username,
    });
    await createAdminClient({ url: adminUrl, credential: approverKey }).post('/admin/users', {
      username,
      role,
      fingerprint: opened.fingerprint,
      why: 'the soak’s staff',
      code: approver.recoveryCodes.shift(),
    });
    return enroll(adminUrl, username, opened.secret);
  };
  // The second approver last: their enrollment ends the setup, after which a person is added by request.
  const maker = await add(SOAK_MAKER, 'operator');
  await add(SOAK_SECOND_APPROVER, 'approver');
  return {
    makerKey: await signIn(adminUrl, maker),
    approverKey,
    approverCode: () => unusedCode(approver),
  };
}

/** The person enrolling with their secret: the key into their authenticator, their password, its code. */
async function enroll(adminUrl: string, username: string, secret: string): Promise<Enrolled> {
  const { seed } = await publicPost<{ seed: string }>(adminUrl, '/admin/enrollments/second-factor', { secret });
  const password = `${username} soak passphrase`;
  const now = new Date();
  const { recoveryCodes } = await publicPost<{ recoveryCodes: string[] }>(adminUrl, '/admin/enrollments/finish', {
    secret,
    password,
    code: totpCode(seed, now),
  });
  return { username, password, seed, recoveryCodes, lastStep: totpStepAt(now) };
}

async function signIn(adminUrl: string, person: Enrolled): Promise<string> {
  const { token } = await publicPost<{ token: string }>(adminUrl, '/admin/sign-in', {
    username: person.username,
    password: person.password,
    code: person.recoveryCodes.shift(),
  });
  return token;
}

/** As a person would: the code on their app, or, if they just used that one, the next one when it shows. */
async function unusedCode(person: Enrolled): Promise<string> {
  let now = new Date();
  if (totpStepAt(now) <= person.lastStep) {
    const next = (person.lastStep + 1) * 30_000;
    await new Promise((resolve) => setTimeout(resolve, next - now.getTime() + 50));
    now = new Date();
  }
  person.lastStep = totpStepAt(now);
  return totpCode(person.seed, now);
}

async function publicPost<T>(adminUrl: string, route: string, body: unknown): Promise<T> {
  const response = await fetch(`${adminUrl}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${parsed.message ?? ''}`);
  return parsed;
}

/**
 * Credits a merchant's main wallet as operators do: asked for by one person with their credential, approved
 * by another with theirs and a code, on whichever of the soak's admin listeners answers (the soak kills APIs).
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
  const code = await operators.approverCode();
  const decided = await onAnyListener(adminUrls, operators.approverKey, (admin) =>
    admin.post<{ approval: { state: string } }>(`/admin/approvals/${id}/approve`, {
      note: 'matched the bank transfer',
      code,
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
