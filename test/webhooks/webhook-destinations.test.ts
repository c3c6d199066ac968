import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { EXIT_OK, EXIT_USAGE } from '@payout/cli';
import { WebhookSender } from '../../apps/worker/src/webhooks/webhook-sender.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { useApi } from '../support/api.js';
import { fourEyes } from '../support/approvals.js';
import { cliUnder, setCliAdmin } from './webhook-fixtures.js';

// A merchant's webhook URL is fetched from inside our network, so it must never lead to our neighbours:
// refused when registered, and refused again on the address each connection is really made to
// (docs/webhooks.md, "Where a webhook may point").
const PRODUCTION = { requireHttps: true, allowPrivateAddresses: false };
// Production's address rules, over http, so the local receiver (127.0.0.1) is what is being refused.
const PUBLIC_ONLY = { requireHttps: false, allowPrivateAddresses: false };

// The admin listener registers the URL, under production's address rules whatever the CLI checked first.
const api = useApi({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
const db: PrismaClient = testPrisma();
beforeAll(async () => setCliAdmin(api.current.adminUrl, (await fourEyes()).makerKey));
const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closing) await c.close();
  await db.$disconnect();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  closing.push(r);
  return r;
}

function sender(...args: ConstructorParameters<typeof WebhookSender>): WebhookSender {
  const s = new WebhookSender(...args);
  closing.push(s);
  return s;
}

describe('merchant webhook registration under production rules', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/hooks'],
    ['loopback written as one number', 'https://2130706433/hooks'],
    ['IPv6 loopback', 'https://[::1]/hooks'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', 'https://10.1.2.3/hooks'],
    ['this host by name', 'https://localhost:8443/hooks'],
    ['plain http', 'http://acme.example/hooks'],
  ])('when the URL points to %s, then it is refused (status 2) and nothing is registered', async (_case, url) => {
    const merchant = await makeMerchant(db);
    const result = await cliUnder(PRODUCTION, 'merchant', 'webhook', '--mid', merchant.mid, '--url', url);
    expect(result.status).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/--url must (not point|be https)/);
    expect(await db.webhookEndpoint.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });

  it('when the URL is https to a public name, then it is registered', async () => {
    const merchant = await makeMerchant(db);
    const result = await cliUnder(
      PRODUCTION,
      'merchant',
      'webhook',
      '--mid',
      merchant.mid,
      '--url',
      'https://acme.example/h',
    );
    expect(result.status).toBe(EXIT_OK);
    expect(await db.webhookEndpoint.count({ where: { merchantId: merchant.merchant.id } })).toBe(1);
  });

  it('when a CLI that allows private addresses asks for a loopback URL, then the admin listener refuses it (status 2) and nothing is registered', async () => {
    const merchant = await makeMerchant(db);
    const result = await cliUnder(
      { requireHttps: false, allowPrivateAddresses: true },
      'merchant',
      'webhook',
      '--mid',
      merchant.mid,
      '--url',
      'http://127.0.0.1:8080/hooks',
    );
    expect(result.status).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/url must not point to/);
    expect(await db.webhookEndpoint.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });
});

describe('webhook sender: the address connected to', () => {
  const send = (s: WebhookSender, url: string) => s.post(url, '{}', { 'Content-Type': 'application/json' }, 2_000);

  it('when a name that resolved to a public address at registration now resolves to 127.0.0.1 (DNS rebinding), then nothing is sent', async () => {
    const endpoint = await receiver();
    const port = new URL(endpoint.url).port;
    const answers = ['93.184.215.14', '127.0.0.1'];
    let asked = 0;
    // The attacker's name server: a public address first, then loopback.
    const rebinding = () => Promise.resolve([{ address: answers[Math.min(asked++, 1)]!, family: 4 }]);
    expect((await rebinding())[0]!.address).toBe('93.184.215.14'); // what registration saw

    const outcome = await send(sender(PUBLIC_ONLY, rebinding), `http://hooks.rebind.test:${port}/hooks/payouts`);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/refused: hooks\.rebind\.test resolves to 127\.0\.0\.1/);
    expect(endpoint.received).toHaveLength(0);
  });

  it.each([
    ['6to4 of loopback', '2002:7f00:1::'],
    ['NAT64 of the metadata service', '64:ff9b::a9fe:a9fe'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
  ])('when a name resolves to a public address and to %s, then nothing is sent', async (_case, special) => {
    const endpoint = await receiver();
    const port = new URL(endpoint.url).port;
    // Every address of the answer is judged, not only the one a connection would try first.
    const resolve = () =>
      Promise.resolve([
        { address: '93.184.215.14', family: 4 },
        { address: special, family: 6 },
      ]);
    const outcome = await send(sender(PUBLIC_ONLY, resolve), `http://hooks.mixed.test:${port}/hooks/payouts`);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toContain(`refused: hooks.mixed.test resolves to ${special}`);
    expect(endpoint.received).toHaveLength(0);
  });

  it.each([
    ['loopback', (port: string) => `http://127.0.0.1:${port}/hooks/payouts`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['IPv4-mapped loopback', (port: string) => `http://[::ffff:127.0.0.1]:${port}/hooks/payouts`],
  ])('when a stored URL points to %s, then it is refused without connecting', async (_case, urlFor) => {
    const endpoint = await receiver();
    const outcome = await send(sender(PUBLIC_ONLY), urlFor(new URL(endpoint.url).port));
    expect(outcome).toEqual({
      durationMs: 0,
      statusCode: null,
      error:
        'refused: the webhook URL must not point to a loopback, private, link-local, metadata or other non-public address',
    });
    expect(endpoint.received).toHaveLength(0);
  });

  it('when private addresses are allowed (tests, development), then the same receiver is reached', async () => {
    const endpoint = await receiver();
    const port = new URL(endpoint.url).port;
    const allowed = sender({ requireHttps: false, allowPrivateAddresses: true });
    // Only the address rule differs from the refused case above: the receiver is really there.
    const outcome = await send(allowed, `http://127.0.0.1:${port}/hooks/payouts`);
    expect(outcome.statusCode).toBe(200);
    expect(endpoint.received).toHaveLength(1);
  });

  it('when the production rules apply, then a plain-http URL is refused', async () => {
    const outcome = await send(sender(PRODUCTION), 'http://acme.example/hooks');
    expect(outcome.error).toBe('refused: the webhook URL must be https:// in production');
  });
});
