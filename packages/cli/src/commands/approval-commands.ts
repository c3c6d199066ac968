import type { Command } from 'commander';
import { findApprovalRequest, listApprovalRequests, type ApprovalRequestView } from '@payout/db';
import { approvalStateAt } from '@payout/domain';
import { approvalJson } from '@payout/use-cases';
import { nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Output, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

export function registerApprovalCommands(program: Command, context: () => CommandContext): void {
  const approval = program
    .command('approval')
    .description(
      'money actions waiting for a second person: list and show (deployment commands), approve, reject, cancel (as you, signed in)',
    );

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

  const decision = (name: 'approve' | 'reject' | 'cancel', description: string) => {
    const command = approval
      .command(name)
      .description(description)
      .requiredOption('--id <id>', 'the request id', idArgument);
    const note = ['--note <why>', 'why, for the audit log', nonEmptyArgument('note', 400)] as const;
    if (name === 'reject') command.requiredOption(...note);
    else command.option(...note);
    if (name === 'approve') {
      command.option(
        '--code <code>',
        'a current code from your authenticator app, or a recovery code (asked for at the terminal when omitted)',
      );
    }
    command.action(async (opts: { id: bigint; note?: string; code?: string }) => {
      const ctx = context();
      const { admin, out } = ctx;
      // Approving runs money: it takes the approver's second factor as well as their credential.
      const code = name === 'approve' ? (opts.code ?? (await askForCode(ctx))) : undefined;
      // The admin listener decides who is deciding: the person whose credential this run holds.
      const answer = await admin().post<DecisionAnswer>(`/admin/approvals/${opts.id}/${name}`, {
        ...(opts.note && { note: opts.note }),
        ...(code && { code }),
      });
      showDecision(out, answer, opts.id);
    });
  };

  decision('approve', 'approve a request made by someone else: it runs now, once, as you (signed in)');
  decision('reject', 'reject a request made by someone else: nothing runs');
  decision('cancel', 'withdraw your own open request');
}

/** The approver's code, asked for when a person is at the terminal; else the server says one is needed. */
async function askForCode(ctx: CommandContext): Promise<string | undefined> {
  let settings;
  try {
    settings = ctx.signIn();
  } catch {
    return undefined;
  }
  return settings.terminal ? settings.readPassword('Code from your authenticator app: ') : undefined;
}

/** A request as the admin listener answers it (`approvalJson`). */
export type ApprovalAnswer = Record<string, unknown> & {
  id: string;
  action: string;
  state: string;
  maker: string;
  requestedAt: string;
  decidedBy: string | null;
  preview: { summary?: string } & Record<string, unknown>;
};

interface DecisionAnswer {
  approval: ApprovalAnswer;
}

/**
 * Prints the request a money command made (the admin listener's 202 answer): its id, and that nothing
 * happens until another approver approves it.
 */
export function showRequested(out: Output, answer: { approval: ApprovalAnswer }): void {
  const request = answer.approval;
  show(out, { approvalId: request.id, ...request }, [
    {
      title: `Request ${request.id} made: nothing happens until another approver approves it`,
      rows: [answerRow(request)],
    },
    {
      rows: [
        { approve: `pnpm cli approval approve --id ${request.id}  (run by the approver, signed in as themselves)` },
      ],
    },
  ]);
}

function showDecision(out: Output, answer: DecisionAnswer, id: bigint): void {
  const request = answer.approval;
  show(out, request, [{ title: `Request ${id}: ${request.state.toLowerCase()}`, rows: [answerRow(request)] }]);
}

function answerRow(r: ApprovalAnswer): Row {
  return {
    id: r.id,
    action: r.action,
    state: r.state,
    what: r.preview.summary ?? null,
    maker: r.maker,
    requested: r.requestedAt,
    decidedBy: r.decidedBy,
  };
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
