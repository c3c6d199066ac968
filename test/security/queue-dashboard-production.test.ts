import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { PAYOUT_QUEUE } from '@payout/queue';
import { useApi } from '../support/api.js';

// The queue dashboard is read-only for everyone in production (docs/operations.md, "The admin listener"):
// retrying, promoting or cleaning a payout job by hand would move money with one person, so bull-board's
// read-only mode refuses every job action there, even to the admin token. Development keeps it full.

const ADMIN_TOKEN = 'a-production-admin-token-0123456789abcdef';
const production = useApi({
  NODE_ENV: 'production',
  ADMIN_TOKEN,
  PAYIN_CALLBACK_SECRET: 'a-production-callback-secret-0123456789abcdef',
  SECOND_FACTOR_KEY: '9c'.repeat(32),
  APPROVALS_ALLOW_SELF_APPROVAL: 'false',
  // Production refuses loopback webhook destinations, which the tests' own setting allows elsewhere.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false',
});
const development = useApi({ NODE_ENV: 'development', ADMIN_TOKEN });

let queue: Queue;
beforeAll(async () => {
  queue = new Queue(PAYOUT_QUEUE, { connection: { url: process.env.REDIS_URL! }, prefix: process.env.QUEUE_PREFIX! });
  await queue.waitUntilReady();
});
afterAll(() => queue.close());

const asAdmin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

async function dashboard(adminUrl: string) {
  const res = await fetch(`${adminUrl}/admin/queues/api/queues`, { headers: asAdmin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { queues: { name: string; readOnlyMode: boolean }[] }).queues;
}

describe('queue dashboard in production', () => {
  it('when the admin token opens it in production, then every queue is read-only and job actions are refused', async () => {
    const url = production.current.adminUrl;
    expect((await dashboard(url)).map((q) => [q.name, q.readOnlyMode])).toEqual([
      ['payouts', true],
      ['webhooks', true],
    ]);
    const job = await queue.add(
      'probe',
      { probe: true },
      { jobId: `dashboard-probe-${process.pid}`, delay: 3_600_000 },
    );
    for (const [method, path] of [
      ['PUT', `/admin/queues/api/queues/${PAYOUT_QUEUE}/retry/failed`],
      ['PUT', `/admin/queues/api/queues/${PAYOUT_QUEUE}/clean/delayed`],
      ['PUT', `/admin/queues/api/queues/${PAYOUT_QUEUE}/${job.id}/promote`],
      ['PUT', `/admin/queues/api/queues/${PAYOUT_QUEUE}/${job.id}/clean`],
      ['PUT', `/admin/queues/api/queues/${PAYOUT_QUEUE}/pause`],
    ] as const) {
      const res = await fetch(`${url}${path}`, { method, headers: asAdmin });
      expect(res.status, `${method} ${path}`).toBe(405);
    }
    expect(await (await queue.getJob(job.id!))?.getState()).toBe('delayed');
    expect(await queue.isPaused()).toBe(false);
    await job.remove();
  });

  it('when the admin token opens it in development, then it is full: the same promote moves the job', async () => {
    const url = development.current.adminUrl;
    expect((await dashboard(url)).every((q) => !q.readOnlyMode)).toBe(true);
    const job = await queue.add('probe', { probe: true }, { jobId: `dashboard-dev-${process.pid}`, delay: 3_600_000 });
    const res = await fetch(`${url}/admin/queues/api/queues/${PAYOUT_QUEUE}/${job.id}/promote`, {
      method: 'PUT',
      headers: asAdmin,
    });
    expect(res.status).toBeLessThan(300);
    expect(await (await queue.getJob(job.id!))?.getState()).toBe('waiting');
    await job.remove();
  });
});
