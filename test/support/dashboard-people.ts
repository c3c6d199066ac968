import { randomBytes, randomUUID } from 'node:crypto';
import { createMerchantUserSession, type PrismaClientOrTransaction } from '@payout/db';
import { hashPassword, newPassword, newTotpSeed, sealSeed, type MerchantUserRole } from '@payout/domain';
import { TEST_SEALING_KEYS } from './people.js';

/** One password for every merchant user a test process makes directly (hashing costs half a second). */
const TEST_PASSWORD = newPassword();
let testPasswordHash: Promise<string> | undefined;

/** A merchant user as enrollment would leave them, made straight in the database. */
export interface DashboardPerson {
  id: number;
  merchantId: number;
  email: string;
  role: MerchantUserRole;
  password: string;
  /** The seed their authenticator app holds. */
  seed: string;
}

/** Makes an enrolled merchant user of `role` for `merchantId` (an e-mail address unique to this call). */
export async function addDashboardUser(
  db: PrismaClientOrTransaction,
  merchantId: number,
  role: MerchantUserRole,
  email = `${role.toLowerCase()}-${randomUUID().slice(0, 8)}@merchant${merchantId}.example`,
): Promise<DashboardPerson> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const seed = newTotpSeed();
  const user = await db.merchantUser.create({
    data: {
      merchantId,
      email,
      role,
      passwordHash: await testPasswordHash,
      totpSealed: sealSeed(seed, TEST_SEALING_KEYS),
      addedBy: 'test',
    },
    select: { id: true },
  });
  return { id: user.id, merchantId, email, role, password: TEST_PASSWORD, seed };
}

/** A signed-in dashboard session of `person`, as the sign-in would start it: the Cookie header and CSRF token. */
export async function dashboardSessionOf(
  db: PrismaClientOrTransaction,
  person: { id: number },
): Promise<{ cookie: string; csrfToken: string }> {
  const sessionId = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await createMerchantUserSession(db, {
    sessionId,
    userId: person.id,
    csrfToken,
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return { cookie: `merchant_session=${sessionId}`, csrfToken };
}
