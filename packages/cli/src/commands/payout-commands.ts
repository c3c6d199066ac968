import type { Command } from 'commander';
import { findPayoutStory, type PayoutStory } from '@payout/db';
import { formatRupees, isSettlementFailureReason, RESOLUTION_FAILURE_REASONS } from '@payout/domain';
import { findPayoutJobs, type PayoutJobView } from '@payout/queue';
import { AdminRefusal } from '../admin-client.js';
import { nonEmptyArgument, noted, payoutCommand } from '../arguments.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { discrepancyRow } from './discrepancy-commands.js';
import { noPayout } from '../payout-by-transaction-id.js';
import { CommandFailure, UsageError } from '../usage-error.js';

export function registerPayoutCommands(program: Command, context: () => CommandContext): void {
  const payout = program
    .command('payout')
    .description("a payout's whole story (a deployment command), and manual resolution (as you, signed in)");
  registerPayoutShowCommand(payout, context);
  registerPayoutResolveCommand(payout, context);
}

function registerPayoutShowCommand(payout: Command, context: () => CommandContext): void {
  payoutCommand(payout, 'show', 'the payout with its events, rail answers, ledger legs and queue jobs').action(
    async (opts: { mid: string; TransactionID: string }) => {
      const { db, queue } = context();
      const story = await findPayoutStory(db(), opts.mid, opts.TransactionID);
      if (!story) throw noPayout(opts.mid, opts.TransactionID);
      let jobs: PayoutJobView[] | string;
      try {
        jobs = await findPayoutJobs(queue(), story.payout.id, story.payout.inquiryAttempts);
      } catch (error) {
        jobs = `queue unavailable: ${(error as Error).message}`;
      }
      printStory(story, jobs, context());
    },
  );
}

interface ResolveOptions {
  mid: string;
  TransactionID: string;
  as: string;
  utr?: string;
  reason?: string;
  override?: string;
  note?: string;
}

function registerPayoutResolveCommand(payout: Command, context: () => CommandContext): void {
  noted(
    payoutCommand(
      payout,
      'resolve',
      'request the settlement of a payout under manual review, after asking the rail (refused while the rail disagrees, unless --override); another approver approves it',
    )
      .requiredOption('--as <outcome>', 'success or failed')
      .option(
        '--utr <reference>',
        "the bank reference (UTR), for --as success (the rail's, if omitted)",
        nonEmptyArgument('utr', 64),
      )
      .option('--reason <reason>', `for --as failed: ${RESOLUTION_FAILURE_REASONS.join(', ')}`)
      .option(
        '--override <why>',
        'settle as asked even though the rail disagrees or cannot be asked; <why> goes to the audit log',
        nonEmptyArgument('override', 400),
      ),
    'why, for the approver and the audit log',
  ).action((opts: ResolveOptions) => requestResolution(context(), opts));
}

/**
 * Asks the admin listener to plan the resolution: it asks the rail, and requests the settlement an approver
 * approves (docs/operations.md, "Approvals").
 */
async function requestResolution(ctx: CommandContext, opts: ResolveOptions): Promise<void> {
  const outcome = opts.as.toLowerCase();
  if (outcome !== 'success' && outcome !== 'failed') throw new UsageError('--as must be success or failed');
  if (outcome === 'failed' && !isSettlementFailureReason(opts.reason)) {
    throw new UsageError(`--as failed needs --reason, one of ${RESOLUTION_FAILURE_REASONS.join(', ')}`);
  }
  let answer: { approval: ApprovalAnswer };
  try {
    answer = await ctx.admin().post<{ approval: ApprovalAnswer }>('/admin/payouts/resolve', {
      mid: opts.mid,
      TransactionID: opts.TransactionID,
      as: outcome,
      ...(opts.utr !== undefined && { utr: opts.utr }),
      ...(outcome === 'failed' && { reason: opts.reason }),
      why: opts.override ?? opts.note ?? 'resolution requested from the CLI',
      ...(opts.override !== undefined && { override: true }),
    });
  } catch (error) {
    // The rail disagreed: say what it answered, as the person checks it with the bank.
    if (error instanceof AdminRefusal && error.status === 409 && typeof error.body?.rail === 'string') {
      throw new CommandFailure(`${error.message} The rail says: ${error.body.rail}.`);
    }
    throw error;
  }
  showRequested(ctx.out, answer);
}

function printStory(story: PayoutStory, jobs: PayoutJobView[] | string, { out }: CommandContext): void {
  const p = story.payout;
  show(out, { ...story, jobs }, [
    {
      title: 'Payout',
      rows: [
        {
          mid: p.mid,
          TransactionID: p.transactionId,
          ackNo: p.ackNo,
          mode: p.mode,
          amount: formatRupees(p.amountPaise),
          state: p.state,
          status: p.status,
          reason: p.failureReason,
          utr: p.bankReference,
          submits: p.submitAttempts,
          inquiries: p.inquiryAttempts,
        },
      ],
    },
    {
      title: '\nEvents',
      rows: story.events.map((e) => ({
        at: e.at.toISOString(),
        from: e.from,
        to: e.to,
        attempt: e.attempt,
        actor: e.actor,
        reason: e.reason,
        rail: e.railAnswer === null ? null : JSON.stringify(e.railAnswer),
      })),
    },
    {
      title: '\nLedger',
      rows: story.ledger.map((l) => ({
        at: l.at.toISOString(),
        kind: l.kind,
        account: l.account,
        amount: formatRupees(l.amountPaise),
      })),
    },
    {
      title: '\nWebhook deliveries',
      rows: story.webhooks.flatMap((d): Row[] =>
        d.attempts.length
          ? d.attempts.map((a) => ({
              delivery: String(d.id),
              status: d.status,
              attempt: a.attempt,
              at: a.startedAt.toISOString(),
              result: a.statusCode ?? a.error,
            }))
          : [{ delivery: String(d.id), status: d.status, attempt: null, at: null, result: null }],
      ),
    },
    {
      title: '\nDiscrepancies (the bank contradicts this payout; `pnpm cli discrepancy resolve`)',
      rows: story.discrepancies.map(discrepancyRow),
    },
    {
      title: '\nQueue jobs',
      rows:
        typeof jobs === 'string'
          ? [{ note: jobs }]
          : jobs.map((j) => ({
              id: j.id,
              state: j.state,
              attempts: j.attemptsMade,
              result: j.returnValue === null ? null : JSON.stringify(j.returnValue),
              failed: j.failedReason,
            })),
    },
  ]);
}
