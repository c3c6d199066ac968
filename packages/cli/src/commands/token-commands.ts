import type { Command } from 'commander';
import { listTokens, type MerchantToken } from '@payout/db';
import { merchantCommand, noted, positiveIntegerArgument } from '../arguments.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { merchantByMid } from '../merchant-by-mid.js';
import { show, showResult, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program.command('token').description("rotate, revoke and list a merchant's API tokens");

  noted(
    merchantCommand(
      token,
      'rotate',
      'request an additional token (the old ones keep working until revoked); another approver approves it',
    ),
    'why, for the approver and the audit log',
  ).action(async (opts: { mid: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ approval: ApprovalAnswer }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/tokens`,
      { why: opts.note ?? 'token requested from the CLI' },
    );
    showRequested(out, answer);
  });

  noted(
    merchantCommand(token, 'revoke', 'revoke one token (see `token list` for ids and prefixes)')
      .option('--id <id>', 'token id', positiveIntegerArgument('id'))
      .option('--prefix <prefix>', "the token's prefix, as `token list` shows it", tokenPrefixArgument),
  ).action(async (opts: { mid: string; id?: number; prefix?: string; note?: string }) => {
    const { admin, out } = context();
    if ((opts.id === undefined) === (opts.prefix === undefined)) {
      throw new UsageError('name the token with --id or --prefix (one of them)');
    }
    const named = opts.id !== undefined ? String(opts.id) : opts.prefix!;
    const answer = await admin().post<{ token: Row }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/tokens/${encodeURIComponent(named)}/revoke`,
      { why: opts.note ?? 'revoked from the CLI' },
    );
    showResult(out, answer.token);
  });

  merchantCommand(token, 'list', "list a merchant's tokens (prefixes only; tokens are stored hashed)").action(
    async (opts: { mid: string }) => {
      const { db, out } = context();
      const tokens = (await listTokens(db(), (await merchantByMid(db(), opts.mid)).id)).map(tokenView);
      show(out, { mid: opts.mid, tokens }, [{ rows: tokens }]);
    },
  );
}

function tokenView(t: MerchantToken) {
  return {
    id: t.id,
    prefix: t.tokenPrefix,
    createdAt: t.createdAt.toISOString(),
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

function tokenPrefixArgument(text: string): string {
  if (!/^[A-Za-z0-9_-]{4,12}$/.test(text)) throw new UsageError(`--prefix must be a token prefix: got "${text}"`);
  return text;
}
