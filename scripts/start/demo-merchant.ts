// The demo merchant `pnpm start` prepares in development, so a newcomer is one copy-paste away from a first
// payout: a merchant with a funded wallet and a fresh token. Development only: the launcher never calls this
// with NODE_ENV=production. Here the developer is the merchant, so the token is made on this machine, as a
// merchant's `payout-token` makes one, and only its digest is registered, straight in the database: no
// person's answer ever carries it (docs/operations.md, "A merchant's token and webhook secret").
import {
  addMerchantUser,
  addToken,
  createMerchant,
  creditWallet,
  findMerchantByMid,
  findMerchantOwner,
  listTokens,
  merchantUserEmailTaken,
  revokeToken,
  setMerchantStatus,
  type PrismaClient,
} from '@payout/db';
import { hashToken, newApiToken, rupees, tokenDisplayPrefix } from '@payout/domain';

export const DEMO_MID = 'DEMO01';
/**
 * The demo merchant's dashboard owner: made unbound, as onboarding makes an owner; they enroll as any owner
 * does (docs/dashboard.md, "Enrollment": /dashboard/enroll, then `pnpm cli merchant owner-enroll`, approved).
 */
export const DEMO_OWNER_EMAIL = 'owner@demo-merchant.example';
/** The opening balance, credited once (the reference makes the credit idempotent across starts). */
const OPENING_BALANCE = rupees(10_000);
const OPENING_REFERENCE = 'DEMO-OPENING-BALANCE';

export interface DemoMerchant {
  mid: string;
  /** A token minted for this start. Tokens are stored hashed, so the one from an earlier start cannot be shown. */
  token: string;
  availablePaise: bigint;
  /** The e-mail its dashboard owner enrolls with. */
  ownerEmail: string;
}

/**
 * Creates the demo merchant on the first start; on every later start mints it a new token and revokes the
 * older ones (a merchant holds at most two), and makes sure it is active and was funded once.
 */
export async function prepareDemoMerchant(db: PrismaClient): Promise<DemoMerchant> {
  const token = newApiToken();
  const tokenHash = hashToken(token);
  const tokenPrefix = tokenDisplayPrefix(token);

  let merchant = await findMerchantByMid(db, DEMO_MID);
  if (!merchant) {
    merchant = await createMerchant(db, {
      mid: DEMO_MID,
      name: 'Demo merchant (development)',
      firstTokenHash: tokenHash,
      firstTokenPrefix: tokenPrefix,
    });
  } else {
    const fresh = await addToken(db, merchant.id, tokenHash, tokenPrefix);
    for (const old of await listTokens(db, merchant.id)) {
      if (old.id !== fresh.id && old.revokedAt === null) await revokeToken(db, merchant.id, old.id);
    }
    if (merchant.status !== 'ACTIVE') await setMerchantStatus(db, DEMO_MID, 'ACTIVE');
  }
  const credit = await creditWallet(db, merchant.id, OPENING_BALANCE, OPENING_REFERENCE);
  const merchantId = merchant.id;
  if (!(await findMerchantOwner(db, merchantId)) && !(await merchantUserEmailTaken(db, DEMO_OWNER_EMAIL))) {
    await db.$transaction((tx) =>
      addMerchantUser(tx, {
        merchantId,
        email: DEMO_OWNER_EMAIL,
        role: 'OWNER',
        enrollmentDigest: null,
        addedBy: 'pnpm start',
      }),
    );
  }
  return { mid: DEMO_MID, token, availablePaise: credit.availablePaise, ownerEmail: DEMO_OWNER_EMAIL };
}
