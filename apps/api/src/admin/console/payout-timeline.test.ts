import { describe, expect, it } from 'vitest';
import type { PayoutStory } from '@payout/db';
import { payoutTimeline } from './payout-timeline.js';

const t = (ms: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, 0) + ms);

const story: PayoutStory = {
  payout: {
    id: 7n,
    mid: 'ACME01',
    merchantName: 'Acme',
    transactionId: '123',
    ackNo: 'AK2611230001ABCD',
    mode: 'IMPS',
    amountPaise: 102250n,
    state: 'SUCCESS',
    status: 'SUCCESS',
    failureReason: null,
    bankReference: '412345678901',
    beneficiaryAccount: '123456789012',
    beneficiaryIfsc: 'HDFC0001234',
    beneficiaryName: 'Asha',
    submitAttempts: 1,
    inquiryAttempts: 0,
    nextCheckAt: null,
    createdAt: t(0),
    updatedAt: t(900),
    settledAt: t(900),
    bank: 'primary',
    routing: { bank: 'primary', score: null, reason: 'only-bank', at: t(10).toISOString() },
    heldSince: null,
  },
  events: [
    { at: t(0), from: null, to: 'ACCEPTED', reason: 'accepted', attempt: null, actor: 'api', railAnswer: null },
    {
      at: t(900),
      from: 'SUBMITTING',
      to: 'SUCCESS',
      reason: 'rail said SUCCESS',
      attempt: 1,
      actor: 'worker',
      railAnswer: { status: 'SUCCESS', utr: '412345678901' },
    },
  ],
  ledger: [
    { at: t(0), kind: 'PAYOUT_RESERVE', account: 'MAIN_WALLET', amountPaise: -102250n, balanceAfterPaise: 97750n },
    { at: t(900), kind: 'PAYOUT_SETTLE', account: 'PAID_OUT', amountPaise: 102250n, balanceAfterPaise: 102250n },
  ],
  discrepancies: [],
  webhooks: [
    {
      id: 3n,
      cause: 'SETTLEMENT',
      sequence: 1,
      status: 'DELIVERED',
      requestedBy: 'settlement',
      createdAt: t(900),
      nextAttemptAt: null,
      finishedAt: t(1200),
      attempts: [
        {
          attempt: 1,
          url: 'https://acme.example/hooks',
          startedAt: t(1000),
          durationMs: 40,
          statusCode: 200,
          error: null,
        },
      ],
    },
  ],
};

describe('payout timeline', () => {
  it('when a story is laid out, then every kind of event is in time order, state changes before the legs they wrote', () => {
    const jobs = [
      {
        id: 'execute-7',
        name: 'execute-payout',
        state: 'completed',
        attemptsMade: 1,
        failedReason: null,
        returnValue: 'SUCCESS',
        processedAt: t(100),
        finishedAt: t(950),
        dueAt: null,
      },
    ];
    const actions = [
      {
        id: 1n,
        at: t(5000),
        actor: 'console:omar',
        action: 'webhook.replay',
        mid: 'ACME01',
        payoutAckNo: 'AK2611230001ABCD',
        payoutTransactionId: '123',
        reason: 'merchant lost it',
        detail: {},
      },
    ];
    const timeline = payoutTimeline(story, jobs, actions);
    expect(timeline.map((e) => [e.at.getTime() - t(0).getTime(), e.kind, e.title])).toEqual([
      [0, 'state', 'ACCEPTED'],
      [0, 'ledger', 'PAYOUT_RESERVE MAIN_WALLET −1022.50'],
      [900, 'rail', 'SUBMITTING → SUCCESS'],
      [900, 'ledger', 'PAYOUT_SETTLE PAID_OUT +1022.50'],
      [900, 'webhook', 'webhook delivery 3 queued (settlement, sequence 1)'],
      [950, 'job', 'job execute-7: completed'],
      [1000, 'webhook', 'webhook attempt 1: HTTP 200'],
      [5000, 'operator', 'webhook.replay by console:omar'],
    ]);
    expect(timeline[1]!.detail).toBe('MAIN_WALLET balance after: 977.50');
    expect(timeline[2]!.raw).toBe('{"status":"SUCCESS","utr":"412345678901"}');
  });
});
