import type { Command } from 'commander';
import { findWallet, ledgerBalances } from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import { creditWallet } from '@payout/operator-actions';
import { amountArgument, audited, merchantCommand, nonEmptyArgument, requestedBy } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { merchantByMid, noMerchant } from '../merchant-by-mid.js';
import { show, showResult } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerWalletCommands(program: Command, context: () => CommandContext): void {
  const wallet = program.command('wallet').description("credit and inspect a merchant's main wallet");

  audited(
    merchantCommand(wallet, 'credit', 'credit the main wallet through the ledger; idempotent on --reference')
      .requiredOption('--amount <amount>', 'rupees, e.g. 1000.00', amountArgument)
      .requiredOption(
        '--reference <ref>',
        'unique reference of this credit (e.g. the bank transfer id)',
        nonEmptyArgument('reference', 100),
      ),
    'crediting',
  ).action(async (opts: { mid: string; amount: Paise; reference: string; note?: string; operator?: string }) => {
    const { db, out } = context();
    const result = await creditWallet(
      { db: db() },
      {
        mid: opts.mid,
        amountPaise: opts.amount,
        reference: opts.reference,
        ...requestedBy(opts, 'credited from the CLI'),
      },
    );
    switch (result.kind) {
      case 'no-merchant':
        throw noMerchant(opts.mid);
      case 'reference-conflict':
        throw new CommandFailure(
          `reference ${opts.reference} was already used for a credit of ${formatRupees(result.creditedPaise)}; nothing changed`,
        );
      case 'credited':
      case 'already-credited': {
        const view = {
          mid: opts.mid,
          reference: opts.reference,
          amount: formatRupees(opts.amount),
          credited: result.kind === 'credited',
          available: formatRupees(result.availablePaise),
        };
        showResult(out, view, [
          result.kind === 'already-credited' && 'This reference was already credited; nothing changed.',
        ]);
      }
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
