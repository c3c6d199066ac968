import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import type { WebhookEvent } from '@payout/client';
import { startWebhookEndpoint } from '../../examples/merchant-integration/src/webhook-endpoint.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { refusingUrl } from '../webhooks/webhook-receiver.js';

// examples/merchant-integration run as a merchant runs it (its own process, `tsx src/main.ts`) against the
// real stack: it pays out, waits for the final result and receives the signed webhook of that result.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const stack = useStack();
let db: PrismaClient;

beforeAll(() => {
  db = testPrisma();
});
afterAll(async () => {
  await db.$disconnect();
});

interface Run {
  code: number | null;
  steps: Record<string, unknown>[];
  stderr: string;
}

function runExample(env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: `${ROOT}examples/merchant-integration`,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      const steps = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, steps, stderr });
    });
  });
}

describe('examples/merchant-integration', () => {
  it('when run against the stack, then it pays out once, sees the final result, verifies the webhook that agrees, and a re-run pays nothing more', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const port = new URL(await refusingUrl()).port;
    const secret = await registerEndpoint(db, merchant, `http://127.0.0.1:${port}/hooks/payouts`);
    const transactionId = '31415926535897932384626';

    const env = {
      PAYOUT_BASE_URL: stack.current.api.url,
      PAYOUT_MID: merchant.mid,
      PAYOUT_TOKEN: merchant.token,
      PAYOUT_WEBHOOK_SECRET: secret,
      WEBHOOK_PORT: port,
      PAYOUT_TRANSACTION_ID: transactionId,
      PAYOUT_AMOUNT: '250.00',
      WEBHOOK_WAIT_MS: '20000',
    };
    const run = await runExample(env);

    expect(run.code, `${JSON.stringify(run.steps)}\n${run.stderr}`).toBe(0);
    const step = (name: string) => run.steps.find((s) => s.step === name);
    expect(step('balance')).toEqual({ step: 'balance', balance: '1000.00' });
    expect(step('accepted')).toMatchObject({ TransactionID: transactionId });
    expect(step('final')).toMatchObject({ kind: 'success', Bankriff: expect.stringMatching(/^[0-9]{12}$/) });
    expect(step('webhook')).toMatchObject({
      type: 'payout.success',
      TransactionID: transactionId,
      status: 'SUCCESS',
      Amount: '250.00',
      Bankriff: (step('final') as { Bankriff: string }).Bankriff,
    });
    expect(step('done')).toEqual({ step: 'done', webhookReceived: true, webhookAgreesWithLookup: true });
    expect(run.steps.some((s) => s.step === 'webhook refused')).toBe(false);

    // Run again with the same TransactionID, as after a crash: the payout is answered, not made again.
    const again = await runExample(env);
    expect(again.code, `${JSON.stringify(again.steps)}\n${again.stderr}`).toBe(0);
    expect(again.steps.find((s) => s.step === 'already paid')).toMatchObject({
      TransactionID: transactionId,
      Bankriff: (step('final') as { Bankriff: string }).Bankriff,
    });

    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchant.id } });
    expect(payouts.map((p) => [p.transactionId, p.status])).toEqual([[transactionId, 'SUCCESS']]);
    expect(stack.current.railSim.payout(payouts[0]!.ackNo)).toMatchObject({ status: 'SUCCESS' });
  }, 90_000);

  it("when the example's endpoint gets a forged delivery, then 401 and nothing applied; a genuine one, 204 and the event", async () => {
    const secret = 'whsec_example_endpoint_test';
    const events: WebhookEvent[] = [];
    const refusals: string[] = [];
    const endpoint = await startWebhookEndpoint({
      port: 0,
      path: '/hooks/payouts',
      secret,
      onEvent: (event) => events.push(event),
      onRefused: (reason) => refusals.push(reason),
    });
    try {
      const body =
        '{"error":false,"status_code":200,"status":"SUCCESS","account":"asha.kumar@okhdfc","Amount":101.00,' +
        '"Bankriff":"417712345678","Ack_no":"01KAKX3T5QH4Z8M2N6PR","TransactionID":27182818284590452353602,' +
        '"message":"MP00 - Transaction successful"}';
      const t = Math.floor(Date.now() / 1000);
      const post = (signature: string) =>
        fetch(endpoint.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Webhook-Id': '77', 'X-Webhook-Signature': signature },
          body,
        });

      const forged = await post(
        `t=${t},v1=${createHmac('sha256', 'whsec_guessed').update(`${t}.${body}`).digest('hex')}`,
      );
      expect(forged.status).toBe(401);
      expect(refusals).toEqual(['signature_mismatch']);
      expect(events).toHaveLength(0);

      const genuine = await post(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
      expect(genuine.status).toBe(204);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        deliveryId: '77',
        payout: { TransactionID: '27182818284590452353602', Amount: '101.00' },
      });
    } finally {
      await endpoint.close();
    }
  });
});
