import type { Command } from 'commander';
import { listTokens, type MerchantToken } from '@payout/db';
import { revokeToken, rotateToken } from '@payout/operator-actions';
import { audited, merchantCommand, positiveIntegerArgument, requestedBy } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { merchantByMid, noMerchant } from '../merchant-by-mid.js';
import { show, showResult } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program.command('token').description("rotate, revoke and list a merchant's API tokens");

  audited(
    merchantCommand(token, 'rotate', 'issue an additional token; the old ones keep working until revoked'),
    'issuing it',
  ).action(async (opts: { mid: string; note?: string; operator?: string }) => {
    const { db, out } = context();
    const issued = await rotateToken(
      { db: db() },
      {
        mid: opts.mid,
        ...requestedBy(opts, 'rotated from the CLI'),
      },
    );
    if (issued.kind === 'no-merchant') throw noMerchant(opts.mid);
    const view = { mid: opts.mid, ...tokenView(issued.row), token: issued.token };
    showResult(out, view, [
      `Revoke the old token once the merchant uses this one: pnpm cli token revoke --mid ${opts.mid} --id <id>`,
    ]);
  });

  audited(
    merchantCommand(token, 'revoke', 'revoke one token (see `token list` for ids)').requiredOption(
      '--id <id>',
      'token id',
      positiveIntegerArgument('id'),
    ),
    'revoking it',
  ).action(async (opts: { mid: string; id: number; note?: string; operator?: string }) => {
    const { db, out } = context();
    const revoked = await revokeToken(
      { db: db() },
      {
        mid: opts.mid,
        tokenId: opts.id,
        ...requestedBy(opts, 'revoked from the CLI'),
      },
    );
    if (revoked.kind === 'no-merchant') throw noMerchant(opts.mid);
    if (revoked.kind === 'no-token') throw new CommandFailure(`MID ${opts.mid} has no active token with id ${opts.id}`);
    const view = { mid: opts.mid, ...tokenView(revoked.row) };
    showResult(out, view);
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
