import type { Command } from 'commander';
import { findApprovalRequest, listApprovalRequests, type ApprovalRequestView } from '@payout/db';
import { approvalStateAt } from '@payout/domain';
import {
  approvalJson,
  approveRequest,
  cancelRequest,
  rejectRequest,
  requestApproval,
  type DecideOutcome,
  type PlannedRequest,
  type Person,
} from '@payout/use-cases';
import { nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Output, type Row } from '../output.js';
import { personNamed } from '../console-person.js';
import { CommandFailure, UsageError } from '../usage-error.js';

export function registerApprovalCommands(program: Command, context: () => CommandContext): void {
  const approval = program
    .command('approval')
    .description('money actions waiting for a second person: list, approve, reject, cancel (docs/operations.md)');

  approval
    .command('list')
    .description('the open requests, newest first (--all: decided ones too)')
    .option('--all', 'include decided, cancelled and expired requests')
    .action(async (opts: { all?: boolean }) => {
      const { db, out } = context();
      const found = await listApprovalRequests(db(), { open: !opts.all, limit: 500 });
      show(out, { approvals: found.map(approvalJson) }, [
        { title: opts.all ? 'Requests' : 'Requests waiting for a decision', rows: found.map(approvalRow) },
      ]);
    });

  approval
    .command('show')
    .description('one request: what will happen, who asked and why, and its decision')
    .requiredOption('--id <id>', 'the request id', idArgument)
    .action(async (opts: { id: bigint }) => {
      const { db, out } = context();
      const request = await findApprovalRequest(db(), opts.id);
      if (!request) throw new CommandFailure(`no request ${opts.id}`);
      showRequest(out, request);
    });

  const decision = (name: 'approve' | 'reject' | 'cancel', description: string, take: typeof approveRequest) => {
    const command = approval
      .command(name)
      .description(description)
      .requiredOption('--id <id>', 'the request id', idArgument)
      .requiredOption(
        '--operator <name>',
        name === 'cancel'
          ? "the request's maker"
          : 'the approver: a console user with the approver role, not the maker',
        nonEmptyArgument('operator', 64),
      );
    const note = ['--note <why>', 'why, for the audit log', nonEmptyArgument('note', 400)] as const;
    if (name === 'reject') command.requiredOption(...note);
    else command.option(...note);
    command.action(async (opts: { id: bigint; operator: string; note?: string }) => {
      const ctx = context();
      const by = await personNamed(ctx.db(), opts.operator);
      const deps = {
        db: ctx.db(),
        approvals: ctx.approvals,
        // Opened only by an approval that asks the rail (a manual resolution).
        get rail() {
          return ctx.rail();
        },
      };
      const outcome = await take(deps, { id: opts.id, by, ...(opts.note && { note: opts.note }) });
      showDecision(ctx.out, outcome, opts.id);
    });
  };

  decision('approve', 'approve a request made by someone else: it runs now, once, in this transaction', approveRequest);
  decision('reject', 'reject a request made by someone else: nothing runs', rejectRequest);
  decision('cancel', 'withdraw your own open request', cancelRequest);
}

/**
 * Stores a money command's plan as a request with `--operator` as its maker and prints its id: nothing
 * else changes until another approver approves it.
 */
export async function requestFromCli(
  context: CommandContext,
  planned: PlannedRequest,
  maker: Person,
  reason: string,
): Promise<void> {
  const { db, out } = context;
  const outcome = await requestApproval({ db: db(), approvals: context.approvals }, { planned, maker, reason });
  if (outcome.kind === 'not-allowed') throw new CommandFailure(`${outcome.why}; nothing changed`);
  const { request } = outcome;
  show(out, { approvalId: request.id, ...approvalJson(request) }, [
    {
      title: `Request ${request.id} made: nothing happens until another approver approves it`,
      rows: [approvalRow(request)],
    },
    { rows: [{ approve: `pnpm cli approval approve --id ${request.id} --operator <approver>` }] },
  ]);
}

function showDecision(out: Output, outcome: DecideOutcome, id: bigint): void {
  switch (outcome.kind) {
    case 'not-found':
      throw new CommandFailure(`no request ${id}`);
    case 'refused':
      throw new CommandFailure(`not allowed: ${outcome.why}; nothing changed`);
    case 'expired':
      throw new CommandFailure(`request ${id} has expired; nothing changed`);
    case 'failed':
      throw new CommandFailure(
        `refused on approval, nothing changed: ${outcome.why} (the request is closed as failed)`,
      );
    default: {
      const handOver = outcome.kind === 'executed' ? outcome.handOver : undefined;
      const result = { ...approvalJson(outcome.request), ...handOver };
      const note =
        handOver && 'token' in handOver
          ? 'give it to the merchant now: it is never shown again'
          : 'give it to the person now: it is never shown again, and they choose their own at first sign-in';
      show(out, result, [
        { title: `Request ${id}: ${outcome.request.state.toLowerCase()}`, rows: [approvalRow(outcome.request)] },
        ...(handOver ? [{ rows: [{ ...handOver, note }] }] : []),
      ]);
    }
  }
}

function showRequest(out: Output, request: ApprovalRequestView): void {
  const { summary: _summary, ...details } = request.preview;
  show(out, approvalJson(request), [
    { title: `Request ${request.id}: ${request.summary}`, rows: [approvalRow(request)] },
    {
      title: '\nWhat will happen',
      rows: Object.entries(details).map(([field, value]) => ({
        field,
        value:
          typeof value === 'object' || value === undefined
            ? JSON.stringify(value)
            : String(value as string | number | boolean),
      })),
    },
  ]);
}

function approvalRow(r: ApprovalRequestView): Row {
  return {
    id: r.id.toString(),
    action: r.action,
    state: approvalStateAt(r, new Date()),
    what: r.summary,
    maker: r.maker,
    requested: r.requestedAt.toISOString(),
    decidedBy: r.decidedBy,
  };
}

function idArgument(text: string): bigint {
  if (!/^[1-9][0-9]{0,18}$/.test(text)) throw new UsageError(`--id must be a request id: got "${text}"`);
  return BigInt(text);
}
