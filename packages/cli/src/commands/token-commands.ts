import type { Command } from 'commander';
import { addToken, findMerchantByMid, listTokens, revokeToken, type MerchantToken } from '@payout/db';
import { hashToken, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { midArgument, positiveIntegerArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program.command('token').description("rotate, revoke and list a merchant's API tokens");

  token
    .command('rotate')
    .description('issue an additional token; the old ones keep working until revoked')
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .action(async (opts: { mid: string }) => {
      const { db, out } = context();
      const merchantId = await merchantIdOf(db(), opts.mid);
      const secret = newApiToken();
      const created = await addToken(db(), merchantId, hashToken(secret), tokenDisplayPrefix(secret));
      const view = { mid: opts.mid, ...tokenView(created), token: secret };
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

  token
    .command('revoke')
    .description('revoke one token (see `token list` for ids)')
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--id <id>', 'token id', positiveIntegerArgument('id'))
    .action(async (opts: { mid: string; id: number }) => {
      const { db, out } = context();
      const merchantId = await merchantIdOf(db(), opts.mid);
      const revoked = await revokeToken(db(), merchantId, opts.id);
      if (!revoked) throw new CommandFailure(`MID ${opts.mid} has no active token with id ${opts.id}`);
      const view = { mid: opts.mid, ...tokenView(revoked) };
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
