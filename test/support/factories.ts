import { randomBytes } from 'node:crypto';
import { addToken, createMerchant, creditWallet, type Merchant, type PrismaClientOrTransaction } from '@payout/db';
import { hashToken, newApiToken, parseRupees, tokenDisplayPrefix } from '@payout/domain';

export interface TestMerchant {
  merchant: Merchant;
  mid: string;
  /** The merchant's API token in clear, as the merchant holds it. */
  token: string;
}

/** A unique MID, so tests never collide with each other's rows. */
export function uniqueMid(prefix = 'T'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** A merchant with one token and, when `balance` ("1000.00") is given, a credited main wallet. */
export async function makeMerchant(
  db: PrismaClientOrTransaction,
  options: { balance?: string; mid?: string; impsMaxPaise?: bigint; upiMaxPaise?: bigint } = {},
): Promise<TestMerchant> {
  const token = newApiToken();
  const mid = options.mid ?? uniqueMid();
  const merchant = await createMerchant(db, {
    mid,
    name: `Test merchant ${mid}`,
    firstTokenHash: hashToken(token),
    firstTokenPrefix: tokenDisplayPrefix(token),
    ...(options.impsMaxPaise !== undefined && { impsMaxPaise: options.impsMaxPaise }),
    ...(options.upiMaxPaise !== undefined && { upiMaxPaise: options.upiMaxPaise }),
  });
  if (options.balance !== undefined) {
    const paise = parseRupees(options.balance);
    if (paise === undefined) throw new Error(`bad balance ${options.balance}`);
    if (paise > 0n) await creditWallet(db, merchant.id, paise, `opening-${mid}`);
  }
  return { merchant, mid, token };
}

/** Issues a further token to a merchant (as `token rotate` does) and returns it in clear. */
export async function issueToken(db: PrismaClientOrTransaction, merchantId: number): Promise<string> {
  const token = newApiToken();
  await addToken(db, merchantId, hashToken(token), tokenDisplayPrefix(token));
  return token;
}
