import type { Command } from 'commander';
import { findMerchantByMid, listTokens, type MerchantToken } from '@payout/db';
import { revokeToken, rotateToken } from '@payout/operator-actions';
import { audited, midArgument, positiveIntegerArgument, requestedBy } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program.command('token').description("rotate, revoke and list a merchant's API tokens");

  audited(
    token
      .command('rotate')
      .description('issue an additional token; the old ones keep working until revoked')
      .requiredOption('--mid <mid>', 'merchant MID', midArgument),
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
    if (issued.kind === 'no-merchant') throw new CommandFailure(`no merchant with MID ${opts.mid}`);
    const view = { mid: opts.mid, ...tokenView(issued.row), token: issued.token };
    show(out, view, [
      { rows: [view] },
      {
        rows: [
          {
            note: `Revoke the old token once the merchant uses this one: pnpm cli token revoke --mid ${opts.mid} --id <id>`,
          },
        ],
      },
    ]);
  });

  audited(
    token
      .command('revoke')
      .description('revoke one token (see `token list` for ids)')
      .requiredOption('--mid <mid>', 'merchant MID', midArgument)
      .requiredOption('--id <id>', 'token id', positiveIntegerArgument('id')),
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
    if (revoked.kind === 'no-merchant') throw new CommandFailure(`no merchant with MID ${opts.mid}`);
    if (revoked.kind === 'no-token') throw new CommandFailure(`MID ${opts.mid} has no active token with id ${opts.id}`);
    const view = { mid: opts.mid, ...tokenView(revoked.row) };
    show(out, view, [{ rows: [view] }]);
  });

  token
    .command('list')
    .description("list a merchant's tokens (prefixes only; tokens are stored hashed)")
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .action(async (opts: { mid: string }) => {
      const { db, out } = context();
      const tokens = (await listTokens(db(), await merchantIdOf(db(), opts.mid))).map(tokenView);
      show(out, { mid: opts.mid, tokens }, [{ rows: tokens }]);
    });
}

async function merchantIdOf(db: Parameters<typeof findMerchantByMid>[0], mid: string): Promise<number> {
  const merchant = await findMerchantByMid(db, mid);
  if (!merchant) throw new CommandFailure(`no merchant with MID ${mid}`);
  return merchant.id;
}

function tokenView(t: MerchantToken) {
  return {
    id: t.id,
    prefix: t.tokenPrefix,
    createdAt: t.createdAt.toISOString(),
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}
