import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiToken } from '@payout/domain';
import { AppProcess, freePort } from '../../bench/app-process.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, losslessBody, upiBody, useApi, type ApiResponse } from '../support/api.js';

// The bench divides the API's figures by the reference server's (docs/performance.md), which is only fair
// if the reference does the same work and answers the same bytes: these tests hold the two side by side.
const prisma = testPrisma();
const api = useApi();
let merchant: TestMerchant;
let reference: AppProcess;
let referenceUrl: string;

beforeAll(async () => {
  // The reference reads credentials once, at start: the merchant exists first.
  merchant = await makeMerchant(prisma, { balance: '100000.00' });
  const port = await freePort();
  reference = AppProcess.start(
    'reference',
    'reference',
    { DATABASE_URL: process.env.DATABASE_URL!, PORT: String(port), DATABASE_POOL_SIZE: '2' },
    [],
    true,
  );
  referenceUrl = `http://127.0.0.1:${port}`;
  await reference.ready(`${referenceUrl}/healthz`);
});

afterAll(async () => {
  await reference.stop();
  await prisma.$disconnect();
});

/** The answer with its per-payout identifiers replaced, so two payouts' answers can be compared byte for byte. */
function shape(response: ApiResponse): string {
  const body = losslessBody(response);
  return response.text.replace(String(body.Ack_no), '<Ack_no>').replace(String(body.TransactionID), '<TransactionID>');
}

describe('bench reference server', () => {
  it('when the same IMPS and UPI payouts are sent to it and to the API, then both accept them with the same status, headers and body', async () => {
    for (const body of [impsBody, upiBody]) {
      const [fromApi, fromReference] = [
        await call(api.current, body === impsBody ? '/api/impspayout' : '/api/payout', { merchant, body: body() }),
        await call({ url: referenceUrl }, body === impsBody ? '/api/impspayout' : '/api/payout', {
          merchant,
          body: body(),
        }),
      ];
      expect(fromApi.status).toBe(202);
      expect(fromReference.status).toBe(fromApi.status);
      expect(shape(fromReference)).toBe(shape(fromApi));
      for (const header of ['content-type', 'cache-control']) {
        expect(fromReference.headers.get(header)).toBe(fromApi.headers.get(header));
      }
    }
  });

  it('when a payout is looked up on it and on the API, then both answer the same bytes', async () => {
    const accepted = await call({ url: referenceUrl }, '/api/impspayout', { merchant, body: impsBody() });
    const path = `/api/check_payout_status?TransactionID=${String(losslessBody(accepted).TransactionID)}`;
    const [fromApi, fromReference] = [
      await call(api.current, path, { merchant }),
      await call({ url: referenceUrl }, path, { merchant }),
    ];
    expect(fromApi.status).toBe(200);
    expect(fromReference.status).toBe(200);
    expect(fromReference.text).toBe(fromApi.text);
  });

  it('when the token is wrong, then it refuses the request as the API does', async () => {
    const stranger = { mid: merchant.mid, token: newApiToken() };
    const fromReference = await call({ url: referenceUrl }, '/api/impspayout', {
      merchant: stranger,
      body: impsBody(),
    });
    expect(fromReference.status).toBe(401);
  });
});
