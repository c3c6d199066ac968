import { randomInt } from 'node:crypto';
import { PayoutClient, type PayoutStatusOutcome, type WebhookEvent } from '@payout/client';
import { startWebhookEndpoint } from './webhook-endpoint.js';

// A merchant's payout integration, start to finish: check the balance, pay out to a UPI address, wait for
// the bank's answer, and receive the signed webhook that reports the same result.
//
//   PAYOUT_BASE_URL=http://127.0.0.1:3000 PAYOUT_MID=ACME01 PAYOUT_TOKEN=… PAYOUT_WEBHOOK_SECRET=whsec_… \
//   WEBHOOK_PORT=8080 pnpm --filter @payout/example-merchant-integration start
//
// Have http://<this host>:8080/hooks/payouts registered as the merchant's webhook URL first
// (`pnpm cli merchant webhook --mid ACME01 --url …`), then fetch your signing secret yourself
// (`POST /api/webhook/secret`, or the SDK's rotateWebhookSecret()). Each step prints one JSON line.
// Exit status 0: the payout reached its final result and a verified webhook said the same.

const env = process.env;
const required = (name: string): string => {
  const value = env[name];
  if (value) return value;
  process.stderr.write(`${name} is required (see README.md)\n`);
  process.exit(2);
};
const config = {
  baseUrl: env.PAYOUT_BASE_URL ?? 'http://127.0.0.1:3000',
  mid: required('PAYOUT_MID'),
  token: required('PAYOUT_TOKEN'),
  webhookSecret: required('PAYOUT_WEBHOOK_SECRET'),
  webhookPort: Number(env.WEBHOOK_PORT ?? 8080),
  upi: env.PAYOUT_UPI ?? 'asha.kumar@okhdfc',
  amount: env.PAYOUT_AMOUNT ?? '101.00',
  // In a real integration the TransactionID is your own payout record's id, saved BEFORE the call, so a
  // restart sends the same one again. Here: a fresh 20-digit id unless one is given.
  transactionId: env.PAYOUT_TRANSACTION_ID ?? `${Date.now()}${randomInt(1_000_000, 9_999_999)}`,
  webhookWaitMs: Number(env.WEBHOOK_WAIT_MS ?? 60_000),
};

function report(step: string, details: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ step, ...details })}\n`);
}

// ----- the webhook side: verify, answer, then apply each payout's result once.

const results = new Map<string, { status: string; sequence: number | undefined }>();
const webhookArrived = new Map<string, (event: WebhookEvent) => void>();

function onEvent(event: WebhookEvent): void {
  const payout = event.payout;
  if (!payout) {
    report('webhook ignored', { type: event.type }); // an event type this integration does not handle yet
    return;
  }
  const seen = results.get(payout.TransactionID);
  // At least once, in any order: apply a result once, and never let an older event overwrite a newer one.
  const stale = seen && (seen.status === payout.status || (event.sequence ?? 0) < (seen.sequence ?? 0));
  if (stale) {
    report('webhook duplicate', { TransactionID: payout.TransactionID, deliveryId: event.deliveryId });
    return;
  }
  results.set(payout.TransactionID, { status: payout.status, sequence: event.sequence });
  report('webhook', {
    type: event.type,
    TransactionID: payout.TransactionID,
    status: payout.status,
    Amount: payout.Amount,
    Bankriff: payout.Bankriff,
    deliveryId: event.deliveryId,
    sequence: event.sequence,
  });
  webhookArrived.get(payout.TransactionID)?.(event);
}

function webhookFor(transactionId: string, timeoutMs: number): Promise<WebhookEvent | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    timer.unref(); // a run that ends without waiting for the webhook exits at once
    webhookArrived.set(transactionId, (event) => {
      clearTimeout(timer);
      resolve(event);
    });
  });
}

// ----- the payout side

async function main(): Promise<number> {
  const client = new PayoutClient({ baseUrl: config.baseUrl, mid: config.mid, token: config.token });
  const endpoint = await startWebhookEndpoint({
    port: config.webhookPort,
    path: '/hooks/payouts',
    secret: config.webhookSecret,
    onEvent,
    onRefused: (reason) => report('webhook refused', { reason }),
  });
  report('webhook endpoint listening', { url: endpoint.url });
  try {
    const wallet = await client.getMainWallet();
    report('balance', { balance: wallet.kind === 'found' ? wallet.balance : 'no wallet yet' });

    const webhook = webhookFor(config.transactionId, config.webhookWaitMs);
    const outcome = await client.upiPayout({
      TransactionID: config.transactionId,
      Amount: config.amount,
      Upi: config.upi,
      Name: 'Asha Kumar',
      Description: 'Example payout',
    });
    switch (outcome.kind) {
      case 'pending':
        report('accepted', { TransactionID: outcome.payout.TransactionID, Ack_no: outcome.payout.Ack_no });
        break;
      case 'success': // this TransactionID was paid before (a re-run): no second payout, and no new webhook
        report('already paid', { TransactionID: outcome.payout.TransactionID, Bankriff: outcome.payout.Bankriff });
        return 0;
      case 'failed': // not enough balance, or a re-run of a failed payout: the TransactionID is used up
        report('failed at once', { reason: outcome.reason });
        return 1;
      case 'conflict':
        report('conflict', { message: outcome.message });
        return 1;
      case 'invalid':
        report('invalid', { message: outcome.message, errors: outcome.errors });
        return 1;
    }

    const final: PayoutStatusOutcome = await client.waitForFinal(config.transactionId);
    report('final', {
      kind: final.kind,
      ...(final.kind === 'success' && { Bankriff: final.payout.Bankriff }),
      ...(final.kind === 'failed' && { reason: final.reason }),
    });
    if (final.kind !== 'success' && final.kind !== 'failed') return 1;

    const event = await webhook;
    const agrees = event?.payout?.status === (final.kind === 'success' ? 'SUCCESS' : 'FAILED');
    report('done', { webhookReceived: event !== undefined, webhookAgreesWithLookup: agrees });
    return agrees ? 0 : 1;
  } finally {
    await endpoint.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    report('error', { message: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  },
);
