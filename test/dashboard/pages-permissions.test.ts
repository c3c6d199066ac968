import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { MERCHANT_USER_ROLES, merchantMay, type MerchantPermission, type MerchantUserRole } from '@payout/domain';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { getPage, payOut, postForm, signedIn, type SignedIn } from './pages-support.js';

// Who may use each read page and action (packages/domain/src/merchant-team.ts): every role is asked for every
// page and action over HTTP, and is refused with 403 exactly where its role lacks the permission. The cancel
// is asked for a TransactionID no payout has, so an allowed role's answer is the 404 page and nothing changes.

const db: PrismaClient = testPrisma();
const api = useApi();
let merchant: TestMerchant;
let transactionId: string;
const people = new Map<MerchantUserRole, SignedIn>();

const ROUTES: readonly (readonly [method: 'GET' | 'POST', path: () => string, permission: MerchantPermission])[] = [
  ['GET', () => '/dashboard', 'read'],
  ['GET', () => '/dashboard/payouts.csv', 'statements'],
  ['GET', () => `/dashboard/payouts/${transactionId}`, 'read'],
  ['POST', () => '/dashboard/payouts/99999999999999999999/cancel', 'pay'],
  ['GET', () => '/dashboard/wallet', 'read'],
  ['GET', () => '/dashboard/wallet/statement.csv', 'statements'],
  ['GET', () => '/dashboard/downtimes', 'read'],
];

beforeAll(async () => {
  merchant = await makeMerchant(db, { balance: '100.00' });
  transactionId = await payOut(api.current, merchant, 'IMPS', { Amount: '1.00' });
  for (const role of MERCHANT_USER_ROLES) people.set(role, await signedIn(db, merchant, role));
});
afterAll(async () => {
  await db.$disconnect();
});

describe('the read pages’ permissions', () => {
  it.each(MERCHANT_USER_ROLES)('refuses %s exactly the pages and actions its role lacks', async (role) => {
    const person = people.get(role)!;
    for (const [method, path, permission] of ROUTES) {
      const res =
        method === 'GET'
          ? await getPage(api.current.url, path(), person)
          : await postForm(api.current.url, path(), person);
      const expected = merchantMay(role, permission) ? (method === 'POST' ? 404 : 200) : 403;
      expect(res.status, `${role} ${method} ${path()}`).toBe(expected);
    }
  });
});
