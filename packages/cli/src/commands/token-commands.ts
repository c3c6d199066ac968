import type { Command } from 'commander';
import { listTokens, type MerchantToken } from '@payout/db';
import { MERCHANT_TOKEN_DIGEST, MERCHANT_TOKEN_PREFIX } from '@payout/use-cases';
import { merchantCommand, noted, positiveIntegerArgument } from '../arguments.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { merchantByMid } from '../merchant-by-mid.js';
import { show, showResult, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program
    .command('token')
    .description("a lost token's replacement, revoking and listing a merchant's API tokens");

  noted(
    merchantMadeTokenOptions(
      merchantCommand(
        token,
        'reissue',
        'ask to register a token the merchant made itself (payout-token) and revoke all its others; another approver approves',
      ).alias('rotate'),
    ),
    'why, for the approver and the audit log',
  ).action(async (opts: { mid: string; tokenDigest: string; tokenPrefix: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ approval: ApprovalAnswer }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/tokens`,
      {
        why: opts.note ?? 'lost token replaced from the CLI',
        tokenDigest: opts.tokenDigest,
        tokenPrefix: opts.tokenPrefix,
      },
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

/**
 * `--token-digest` and `--token-prefix`: what a merchant's `payout-token` printed of the token it made and
 * keeps (docs/client.md, "Making a token"). Neither works as a credential.
 */
export function merchantMadeTokenOptions(command: Command): Command {
  return command
    .requiredOption(
      '--token-digest <sha256>',
      "the SHA-256 the merchant's payout-token printed (64 hex digits)",
      tokenDigestArgument,
    )
    .requiredOption(
      '--token-prefix <prefix>',
      "the prefix the merchant's payout-token printed (pgt_ and six characters)",
      madeTokenPrefixArgument,
    );
}

// A refusal never repeats what was typed: pasted by mistake, it could be the token itself.
function tokenDigestArgument(text: string): string {
  if (!MERCHANT_TOKEN_DIGEST.test(text.trim())) {
    throw new UsageError(
      `--token-digest must be the token's SHA-256, 64 hex digits (got ${text.trim().length} characters): never the token itself`,
    );
  }
  return text.trim().toLowerCase();
}

function madeTokenPrefixArgument(text: string): string {
  if (!MERCHANT_TOKEN_PREFIX.test(text.trim())) {
    throw new UsageError(
      `--token-prefix must be pgt_ and six more characters (got ${text.trim().length}): never the whole token`,
    );
  }
  return text.trim();
}

function tokenPrefixArgument(text: string): string {
  if (!/^[A-Za-z0-9_-]{4,12}$/.test(text)) throw new UsageError(`--prefix must be a token prefix: got "${text}"`);
  return text;
}
