import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { errorBody, expectJson } from '../api/contract-expectations.js';

// Beneficiary validation per merchant (docs/api.md, "Beneficiary validation"): each merchant asks within
// its own quota a minute, and is never answered from another merchant's question. A stub bank here counts
// the questions it is asked and gives each a name of its own, so an answer shows which question it came from.

const QUOTA = 4;
const UPI = '/api/validate/upi';
const prisma = testPrisma();

const bank = { asked: [] as string[], server: createServer(), url: '' };

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text) as Record<string, string>;
}

beforeAll(async () => {
  bank.server.on('request', (req, res) => {
    void readBody(req).then((body) => {
      bank.asked.push(body.upi ?? '');
      const answer = { status: 'VALID', registered_name: `HOLDER ${bank.asked.length}` };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => bank.server.listen(0, '127.0.0.1', resolve));
  bank.url = `http://127.0.0.1:${(bank.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => bank.server.close(() => resolve()));
  await prisma.$disconnect();
});

const api = useApi(() => ({ RAIL_BASE_URL: bank.url, VALIDATION_RATE_PER_MINUTE: String(QUOTA) }));

const validateUpi = (merchant: { mid: string; token: string }, upi: string) =>
  call(api.current, UPI, { merchant, body: { Upi: upi } });

describe('beneficiary validation quota', () => {
  it('when a merchant uses up its validations for the minute, then it gets 429 with Retry-After while another merchant is still answered', async () => {
    const busy = await makeMerchant(prisma);
    const other = await makeMerchant(prisma);

    for (let i = 0; i < QUOTA; i++) {
      expect((await validateUpi(busy, `payee${i}@okhdfc`)).status).toBe(200);
    }
    const refused = await validateUpi(busy, 'one.more@okhdfc');
    expectJson(refused, 429, errorBody(429, 'TOO MANY REQUESTS', expect.stringMatching(/beneficiary validations/)));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(bank.asked).not.toContain('one.more@okhdfc');

    const answered = await validateUpi(other, 'payee0@okhdfc');
    expect(answered.status).toBe(200);
    expect(answered.json.status).toBe('VALID');
  });

  it('when a merchant asks about a beneficiary another merchant just asked about, then the bank is asked again and its own answer comes back', async () => {
    const first = await makeMerchant(prisma);
    const second = await makeMerchant(prisma);
    bank.asked = [];

    const firstAnswer = await validateUpi(first, 'shared.payee@okicici');
    const firstAgain = await validateUpi(first, 'Shared.Payee@okicici');
    expect(bank.asked).toEqual(['shared.payee@okicici']);
    expect(firstAgain.json.registered_name).toBe(firstAnswer.json.registered_name);

    const secondAnswer = await validateUpi(second, 'shared.payee@okicici');
    expect(bank.asked).toEqual(['shared.payee@okicici', 'shared.payee@okicici']);
    expect(secondAnswer.status).toBe(200);
    expect(secondAnswer.json.registered_name).toBe('HOLDER 2');
    expect(firstAnswer.json.registered_name).toBe('HOLDER 1');
  });
});
