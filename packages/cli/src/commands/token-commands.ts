import type { Command } from 'commander';
import { listTokens, type MerchantToken } from '@payout/db';
import { planTokenIssue, revokeToken } from '@payout/use-cases';
import { audited, merchantCommand, positiveIntegerArgument, requestedBy, requestedMoneyAction } from '../arguments.js';
import { personNamed } from '../console-person.js';
import { requestFromCli } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { merchantByMid, noMerchant } from '../merchant-by-mid.js';
import { show, showResult } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerTokenCommands(program: Command, context: () => CommandContext): void {
  const token = program.command('token').description("rotate, revoke and list a merchant's API tokens");

  requestedMoneyAction(
    merchantCommand(
      token,
      'rotate',
      'request an additional token (the old ones keep working until revoked); it is shown once to its approver',
    ),
  ).action(async (opts: { mid: string; note?: string; operator: string }) => {
    const ctx = context();
    const maker = await personNamed(ctx.db(), opts.operator);
    const plan = await planTokenIssue({ db: ctx.db() }, { mid: opts.mid });
    if (plan.kind === 'no-merchant') throw noMerchant(opts.mid);
    await requestFromCli(ctx, plan.planned, maker, opts.note ?? 'token requested from the CLI');
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
