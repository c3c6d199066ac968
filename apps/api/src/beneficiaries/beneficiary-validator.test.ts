import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AppError } from '@payout/domain';
import { createProducerConnection } from '@payout/queue';
import type { BeneficiaryValidation } from '@payout/rails';
import { BeneficiaryValidator } from './beneficiary-validator.js';
import { validationQuota } from './validation-quota.js';

const log = pino({ level: 'silent' });
const redis = createProducerConnection(process.env.REDIS_URL!);
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(() => redis.disconnect());

/** A bank that names each answer after the question it answers, and counts them. */
function countingBank() {
  const asked: string[] = [];
  const answer = (what: string): Promise<BeneficiaryValidation> => {
    asked.push(what);
    return Promise.resolve({ outcome: 'VALID', registeredName: `HOLDER ${asked.length}`, raw: {} });
  };
  return {
    asked,
    rail: {
      validateAccount: (account: { account: string; ifsc: string }) => answer(`${account.ifsc}:${account.account}`),
      validateUpi: (upi: string) => answer(upi),
    },
  };
}

describe('BeneficiaryValidator', () => {
  it('when one merchant asks again within the TTL, then the cache answers; another merchant asking the same is answered by a question of its own', async () => {
    const bank = countingBank();
    const validator = new BeneficiaryValidator(bank.rail, { cacheTtlMs: 60_000 });
    const account = { account: '123456789012', ifsc: 'HDFC0001234' };

    expect(await validator.account(log, 'MERCHANTA', account)).toEqual({ status: 'VALID', registeredName: 'HOLDER 1' });
    expect(await validator.account(log, 'MERCHANTA', account)).toEqual({ status: 'VALID', registeredName: 'HOLDER 1' });
    expect(await validator.account(log, 'MERCHANTB', account)).toEqual({ status: 'VALID', registeredName: 'HOLDER 2' });
    expect(bank.asked).toEqual(['HDFC0001234:123456789012', 'HDFC0001234:123456789012']);
  });

  it('when two merchants ask about one UPI address at the same moment, then each gets its own rail call; one merchant’s twin questions share one', async () => {
    const bank = countingBank();
    const validator = new BeneficiaryValidator(bank.rail, { cacheTtlMs: 60_000 });
    const answers = await Promise.all([
      validator.upi(log, 'MERCHANTA', 'asha@okhdfc'),
      validator.upi(log, 'MERCHANTA', 'Asha@OKHDFC'),
      validator.upi(log, 'MERCHANTB', 'asha@okhdfc'),
    ]);
    expect(bank.asked).toHaveLength(2);
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[2]).not.toEqual(answers[0]);
  });

  it('when the merchant is over its quota, then 429 comes back without a rail call; another merchant is still answered', async () => {
    const bank = countingBank();
    const validator = new BeneficiaryValidator(bank.rail, {
      cacheTtlMs: 60_000,
      quota: validationQuota({ redis, prefix: `quota-test-${randomBytes(4).toString('hex')}`, perMinute: 1 }),
    });
    expect((await validator.upi(log, 'BUSY', 'asha@okhdfc')).status).toBe('VALID');
    const refusal = await validator.upi(log, 'BUSY', 'ravi@okhdfc').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).httpStatus).toBe(429);
    expect((refusal as AppError).details.retryAfterSeconds).toBeGreaterThan(0);
    expect(bank.asked).toEqual(['asha@okhdfc']);
    expect((await validator.upi(log, 'CALM', 'ravi@okhdfc')).status).toBe('VALID');
  });
});
