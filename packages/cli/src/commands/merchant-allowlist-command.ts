import type { Command } from 'commander';
import { merchantCommand, nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';

interface AllowlistOptions {
  mid: string;
  cidr: string[];
  clear?: boolean;
  why: string;
}

interface RequestedApproval {
  approval: { id: string; state: string; preview: { summary?: string; before?: string[]; after?: string[] } };
}

const collect = (value: string, previous: string[]) => [...previous, value];
const listed = (cidrs: readonly string[] | undefined) => (cidrs?.length ? cidrs.join(', ') : 'any address');

/**
 * `pnpm cli merchant allowlist`: asks for a new IP allow-list for a merchant (docs/api.md, "IP allow-list")
 * through the admin listener, as the person whose credential this run holds; another approver approves it
 * there (docs/operations.md, "Approvals"). The server reads and checks the CIDRs.
 */
export function registerMerchantAllowlistCommand(merchant: Command, context: () => CommandContext): void {
  merchantCommand(
    merchant,
    'allowlist',
    "request a new IP allow-list (the addresses the merchant's tokens work from); another approver approves it",
  )
    .option('--cidr <cidr>', 'an IPv4 or IPv6 CIDR, e.g. 203.0.113.0/24 (repeat for several)', collect, [])
    .option('--clear', 'ask for an empty list: the tokens work from any address')
    .requiredOption('--why <reason>', 'why, for the approver and the audit log', nonEmptyArgument('why', 400))
    .action(async (opts: AllowlistOptions) => {
      if (opts.clear && opts.cidr.length > 0) throw new UsageError('give --cidr or --clear, not both');
      if (!opts.clear && opts.cidr.length === 0) throw new UsageError('give at least one --cidr, or --clear');
      const { admin, out } = context();
      const answer = await admin().post<RequestedApproval>(
        `/admin/merchants/${encodeURIComponent(opts.mid)}/ip-allowlist`,
        { cidrs: opts.cidr, why: opts.why },
      );
      const { approval } = answer;
      const row: Row = {
        request: approval.id,
        state: approval.state,
        before: listed(approval.preview.before),
        after: listed(approval.preview.after),
      };
      show(out, { approvalId: approval.id, ...answer.approval }, [
        { title: `Request ${approval.id} made: nothing changes until another approver approves it`, rows: [row] },
      ]);
    });
}
