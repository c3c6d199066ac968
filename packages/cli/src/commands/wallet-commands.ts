import type { Command } from 'commander';
import { findWallet, ledgerBalances } from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import { amountArgument, merchantCommand, nonEmptyArgument, noted } from '../arguments.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import type { CommandContext } from '../context.js';
import { merchantByMid } from '../merchant-by-mid.js';
import { show, showResult, type Row } from '../output.js';

export function registerWalletCommands(program: Command, context: () => CommandContext): void {
  const wallet = program.command('wallet').description("credit and inspect a merchant's main wallet");

  noted(
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
    'why, for the approver and the audit log',
  ).action(async (opts: { mid: string; amount: Paise; reference: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ approval?: ApprovalAnswer; credit?: Row }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/credits`,
      {
        amount: formatRupees(opts.amount),
        reference: opts.reference,
        why: opts.note ?? 'credit requested from the CLI',
      },
    );
    if (answer.approval) showRequested(out, { approval: answer.approval });
    else showResult(out, answer.credit ?? {}, ['This reference was already credited; nothing changed.']);
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
