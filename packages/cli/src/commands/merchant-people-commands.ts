import type { Command } from 'commander';
import { merchantCommand, nonEmptyArgument, noted } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { showResult, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';

/**
 * A merchant's dashboard people, as staff reach them (docs/dashboard.md, "Enrollment" and "The team"):
 * `merchant owner-enroll` asks that the owner be bound to the enrollment they opened (or bound again after
 * a lost phone), which another approver approves; `merchant disable-person` disables one for an incident.
 */
export function registerMerchantPeopleCommands(merchant: Command, context: () => CommandContext): void {
  noted(
    merchantCommand(
      merchant,
      'owner-enroll',
      "ask that the merchant's dashboard owner be bound to their own enrollment (again, after a lost phone); another approver approves",
    )
      .requiredOption('--email <email>', "the owner's e-mail", nonEmptyArgument('email', 254))
      .requiredOption(
        '--fingerprint <XXXX-XXXX>',
        'the fingerprint the owner read you from their own enrollment (/dashboard/enroll)',
        nonEmptyArgument('fingerprint', 12),
      ),
    'why, for the approver and the audit log',
  ).action(async (opts: { mid: string; email: string; fingerprint: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ approval: ApprovalAnswer }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/owner-enrollment`,
      { email: opts.email, fingerprint: opts.fingerprint, why: opts.note ?? 'owner enrollment from the CLI' },
    );
    showRequested(out, answer);
  });

  noted(
    merchantCommand(
      merchant,
      'disable-person',
      "disable a person of the merchant's dashboard (an incident)",
    ).requiredOption('--user-id <id>', "the person's id (the console's merchant page lists them)", (text: string) => {
      if (!/^[1-9][0-9]{0,9}$/.test(text)) throw new UsageError(`--user-id must be a number: got "${text}"`);
      return text;
    }),
  ).action(async (opts: { mid: string; userId: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<Row>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/team/${opts.userId}/disable`,
      { why: opts.note ?? 'disabled from the CLI' },
    );
    showResult(out, answer);
  });
}
