import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, type ApiResponse } from '../support/api.js';
import { useStack } from '../support/stack.js';
import { documentedBodyErrors, type JsonObject } from './openapi-checks.js';

// The results a payout reaches only through the worker and the bank (the rail simulator): SUCCESS with a
// UTR, and FAILED with the bank's reason. Their replays and lookups must fit the published document too.

const prisma = testPrisma();
const stack = useStack();
let document: JsonObject;
let merchant: TestMerchant;

beforeAll(async () => {
  document = (await call(stack.current.api, '/openapi.json')).json;
  merchant = await makeMerchant(prisma, { balance: '10000.00' });
});
afterAll(async () => {
  await prisma.$disconnect();
});

const lookup = (transactionId: string) =>
  call(stack.current.api, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant });

/** Waits for the payout to be decided, then returns the lookup's answer. */
async function settled(transactionId: string): Promise<ApiResponse> {
  return eventually(
    () => lookup(transactionId),
    (res) => res.json.status === 'Success' || res.json.status === 'Failed',
    { what: `payout ${transactionId} to be decided` },
  );
}

describe.each([
  ['/api/impspayout', impsBody],
  ['/api/payout', upiBody],
])('POST %s once the bank has decided', (path, bodyFor) => {
  it('when the payout succeeded, then its replay (200 SUCCESS) and its lookup fit their documented bodies', async () => {
    const body = bodyFor({ TransactionID: newTransactionId(), Amount: '150.00' });
    expect((await call(stack.current.api, path, { merchant, body })).status).toBe(202);
    const decided = await settled(body.TransactionID);
    expect(decided.json.status, decided.text).toBe('Success');
    expect(documentedBodyErrors(document, '/api/check_payout_status', 'get', decided), decided.text).toEqual([]);

    const replay = await call(stack.current.api, path, { merchant, body });
    expect(replay.status, replay.text).toBe(200);
    expect(documentedBodyErrors(document, path, 'post', replay), replay.text).toEqual([]);
  });

  it('when the bank declined the payout, then its replay (400 FAILED) and its lookup fit their documented bodies', async () => {
    // Paise .11: the simulator declines (docs/rail-sim.md).
    const body = bodyFor({ TransactionID: newTransactionId(), Amount: '150.11' });
    expect((await call(stack.current.api, path, { merchant, body })).status).toBe(202);
    const decided = await settled(body.TransactionID);
    expect(decided.json.status, decided.text).toBe('Failed');
    expect(documentedBodyErrors(document, '/api/check_payout_status', 'get', decided), decided.text).toEqual([]);

    const replay = await call(stack.current.api, path, { merchant, body });
    expect(replay.status, replay.text).toBe(400);
    expect(replay.json.message).toBe('MP007 - Transaction failed: declined by beneficiary bank');
    expect(documentedBodyErrors(document, path, 'post', replay), replay.text).toEqual([]);
  });
});
