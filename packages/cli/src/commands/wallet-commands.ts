import type { Command } from 'commander';
import { findWallet, ledgerBalances } from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import { planWalletCredit } from '@payout/use-cases';
import { amountArgument, merchantCommand, nonEmptyArgument, requestedMoneyAction } from '../arguments.js';
import { personNamed } from '../console-person.js';
import { requestFromCli } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { merchantByMid, noMerchant } from '../merchant-by-mid.js';
import { show, showResult } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerWalletCommands(program: Command, context: () => CommandContext): void {
  const wallet = program.command('wallet').description("credit and inspect a merchant's main wallet");

  requestedMoneyAction(
    merchantCommand(
      wallet,
      'credit',
      'request a credit of the main wallet through the ledger (idempotent on --reference); another approver approves it',
    )
      .requiredOption('--amount <amount>', 'rupees, e.g. 1000.00', amountArgument)
      .requiredOption(
        '--reference <ref>',
        'unique reference of this credit (e.g. the bank transfer id)',
        nonEmptyArgument('reference', 100),
      ),
  ).action(async (opts: { mid: string; amount: Paise; reference: string; note?: string; operator: string }) => {
    const ctx = context();
    const maker = await personNamed(ctx.db(), opts.operator);
    const plan = await planWalletCredit(
      { db: ctx.db() },
      { mid: opts.mid, amountPaise: opts.amount, reference: opts.reference },
    );
    switch (plan.kind) {
      case 'no-merchant':
        throw noMerchant(opts.mid);
      case 'reference-conflict':
        throw new CommandFailure(
          `reference ${opts.reference} was already used for a credit of ${formatRupees(plan.creditedPaise)}; nothing changed`,
        );
      case 'already-credited':
        showResult(
          ctx.out,
          {
            mid: opts.mid,
            reference: opts.reference,
            amount: formatRupees(opts.amount),
            credited: false,
            available: formatRupees(plan.availablePaise),
          },
          ['This reference was already credited; nothing changed.'],
        );
        return;
      case 'planned':
        await requestFromCli(ctx, plan.planned, maker, opts.note ?? 'credit requested from the CLI');
    }
  });

  merchantCommand(wallet, 'show', 'show the wallet and the ledger balances behind it').action(
    async (opts: { mid: string }) => {
      const { db, out } = context();
      const merchant = await merchantByMid(db(), opts.mid);
      const balances = await findWallet(db(), merchant.id);
      const ledger = await ledgerBalances(db(), merchant.id);
      const view = {
        mid: opts.mid,
        available: formatRupees(balances?.availablePaise ?? 0n),
        reserved: formatRupees(balances?.reservedPaise ?? 0n),
        ledger: {
          credited: formatRupees(-ledger.funding),
          mainWallet: formatRupees(ledger.mainWallet),
          reserved: formatRupees(ledger.reserved),
          paidOut: formatRupees(ledger.paidOut),
        },
      };
      show(out, view, [
        { title: 'Wallet', rows: [{ mid: view.mid, available: view.available, reserved: view.reserved }] },
        { title: '\nLedger', rows: [view.ledger] },
      ]);
    },
  );
}
