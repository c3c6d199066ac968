import type { Command } from 'commander';
import { creditWallet, CreditReferenceConflictError, findMerchantByMid, findWallet, ledgerBalances } from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import { amountArgument, midArgument, nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerWalletCommands(program: Command, context: () => CommandContext): void {
  const wallet = program.command('wallet').description("credit and inspect a merchant's main wallet");

  wallet
    .command('credit')
    .description('credit the main wallet through the ledger; idempotent on --reference')
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--amount <amount>', 'rupees, e.g. 1000.00', amountArgument)
    .requiredOption(
      '--reference <ref>',
      'unique reference of this credit (e.g. the bank transfer id)',
      nonEmptyArgument('reference', 100),
    )
    .action(async (opts: { mid: string; amount: Paise; reference: string }) => {
      const { db, out } = context();
      const merchant = await findMerchantByMid(db(), opts.mid);
      if (!merchant) throw new CommandFailure(`no merchant with MID ${opts.mid}`);
      try {
        const result = await creditWallet(db(), merchant.id, opts.amount, opts.reference);
        const view = {
          mid: opts.mid,
          reference: opts.reference,
          amount: formatRupees(opts.amount),
          credited: result.credited,
          available: formatRupees(result.availablePaise),
        };
        show(out, view, [
          { rows: [view] },
          ...(result.credited ? [] : [{ rows: [{ note: 'This reference was already credited; nothing changed.' }] }]),
        ]);
      } catch (error) {
        if (error instanceof CreditReferenceConflictError) {
          throw new CommandFailure(
            `reference ${error.reference} was already used for a credit of ${formatRupees(error.creditedPaise)}; nothing changed`,
          );
        }
        throw error;
      }
    });

  wallet
    .command('show')
    .description('show the wallet and the ledger balances behind it')
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .action(async (opts: { mid: string }) => {
      const { db, out } = context();
      const merchant = await findMerchantByMid(db(), opts.mid);
      if (!merchant) throw new CommandFailure(`no merchant with MID ${opts.mid}`);
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
    });
}
