import { parseBulkItem } from '@payout/contract';
import {
  acceptPayoutsInTransaction,
  beneficiaryKeyOf,
  findBulkBatch,
  findCredentials,
  findKnownBeneficiaries,
  findPayoutsByTransactionIds,
  findWallet,
  recordBulkBatch,
  type MerchantCredentials,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { formatRupees, newAckNo, type Paise, type PayoutRequest } from '@payout/domain';
import { audit } from '../audit.js';
import type { MoneyAction, PlannedRequest } from '../approvals/money-action.js';
import { actorOf } from '../approvals/person.js';
import { BulkCsvRefused, bulkCsvBatchId, readBulkCsvLines, type BulkCsvLine } from './bulk-csv.js';
import { MERCHANT_LIMIT } from './create-payout.js';
import { bulkItemsDigest } from './submit-bulk-payout.js';

// An operator's bulk batch is money leaving a merchant's wallet on a person's word, so it is a request a
// second person approves (docs/operations.md, "Bulk payouts from a file"). A merchant's own batch through
// the merchant API, under its own token, is not: submit-bulk-payout.ts beside this file.

export type PlanOperatorBulkOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'no-merchant' }
  /** The file, a line or the BatchID is malformed: nothing was stored. */
  | { kind: 'invalid'; why: string }
  /** A well-formed batch this merchant cannot pay now (suspended, TransactionID or BatchID used, balance short). */
  | { kind: 'refused'; why: string };

export interface PlanOperatorBulkInput {
  mid: string;
  /** The CSV file's text (docs/operations.md, "Bulk payouts from a file"). */
  csv: string | Buffer;
  /** 1 to 30 digits; from the file's content when absent, so the same file twice is the same batch. */
  batchId?: string;
}

interface OperatorBulkParams {
  merchantId: number;
  mid: string;
  batchId: string;
  itemsDigest: string;
  totalPaise: string;
  /** The file's lines as read: parsed again, the same way, when the request runs. */
  lines: BulkCsvLine[];
}

/** A beneficiary line as the approver is shown it. */
interface PreviewLine {
  line: number;
  TransactionID: string;
  mode: string;
  beneficiary: string;
  name: string;
  amount: string;
  beneficiaryIs: 'new' | 'paid before';
}

/** Most refused lines named in one message; the rest are counted. */
const LISTED_PROBLEMS = 20;

/**
 * An operator's batch, checked and described for its approver: the file read whole by the reader the CLI and
 * console share (a malformed file refused with its line numbers), every line judged as the bulk endpoint
 * judges an item (its schema and the merchant's own per-mode limit), no TransactionID or BatchID used
 * before, and a wallet that covers the total. Nothing is stored here; the preview names each beneficiary,
 * new to this merchant or paid before, and the available balance before and after.
 */
export async function planOperatorBulkBatch(
  deps: { db: PrismaClientOrTransaction },
  input: PlanOperatorBulkInput,
): Promise<PlanOperatorBulkOutcome> {
  const batchId = input.batchId ?? bulkCsvBatchId(input.csv);
  if (!/^[0-9]{1,30}$/.test(batchId)) return { kind: 'invalid', why: 'the BatchID must be 1 to 30 digits' };
  let lines: BulkCsvLine[];
  try {
    lines = readBulkCsvLines(input.csv);
  } catch (error) {
    if (error instanceof BulkCsvRefused) return { kind: 'invalid', why: error.message };
    throw error;
  }
  const credentials = await findCredentials(deps.db, input.mid);
  if (!credentials) return { kind: 'no-merchant' };
  const { merchant } = credentials;
  if (merchant.status !== 'ACTIVE') return { kind: 'refused', why: `merchant ${merchant.mid} is suspended` };

  const payouts = lines.map((l) => parseBulkItem(l.item));
  const overLimit = overMerchantLimit(merchant, lines, payouts);
  if (overLimit) return { kind: 'invalid', why: overLimit };
  const unusable = await usedMeanwhile(deps.db, merchant.id, batchId, lines, payouts, 'already');
  if (unusable) return { kind: 'refused', why: unusable };

  const totalPaise = payouts.reduce((sum, p) => sum + p.amountPaise, 0n);
  const availablePaise = (await findWallet(deps.db, merchant.id))?.availablePaise ?? 0n;
  if (availablePaise < totalPaise) {
    return { kind: 'refused', why: shortBy(merchant.mid, totalPaise, availablePaise) };
  }

  const known = await findKnownBeneficiaries(deps.db, merchant.id, payouts);
  const previewLines = lines.map((l, i): PreviewLine => previewLine(l.line, payouts[i]!, known));
  // New beneficiaries first: they are what an approver must look at (docs/operations.md, "Approvals").
  const ordered = [
    ...previewLines.filter((l) => l.beneficiaryIs === 'new'),
    ...previewLines.filter((l) => l.beneficiaryIs !== 'new'),
  ];
  const newBeneficiaries = new Set(
    payouts.filter((p) => !known.has(beneficiaryKeyOf(p))).map((p) => beneficiaryKeyOf(p)),
  ).size;
  const params: OperatorBulkParams = {
    merchantId: merchant.id,
    mid: merchant.mid,
    batchId,
    itemsDigest: bulkItemsDigest(lines.map((l) => l.item)),
    totalPaise: totalPaise.toString(),
    lines,
  };
  return {
    kind: 'planned',
    planned: {
      action: 'bulk.submit',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary:
          `Bulk batch ${batchId} for ${merchant.mid}: ${lines.length} payouts, ${formatRupees(totalPaise)} from the ` +
          `main wallet; ${newBeneficiaries} beneficiaries new to ${merchant.mid}`,
        mid: merchant.mid,
        batchId,
        payouts: lines.length,
        total: formatRupees(totalPaise),
        newBeneficiaries,
        availableBefore: formatRupees(availablePaise),
        availableAfter: formatRupees(availablePaise - totalPaise),
        lines: ordered,
      },
    },
  };
}

/**
 * The approved batch, once, in the approver's transaction: the merchant still active, no TransactionID nor the
 * BatchID used meanwhile, the available balance still covering the total; then every line is accepted through
 * `accept_payouts` (reserved as a merchant's batch is) and the batch recorded. Any line that would not be
 * reserved refuses the whole approval and nothing changes. The jobs are queued after the commit.
 */
export const operatorBulkBatch = {
  action: 'bulk.submit',
  async execute({ tx, request, approver, producer }) {
    const params = request.params as unknown as OperatorBulkParams;
    const credentials = await findCredentials(tx, params.mid);
    if (!credentials || credentials.merchant.id !== params.merchantId)
      return { kind: 'refused', why: `merchant ${params.mid} is gone` };
    const { merchant } = credentials;
    if (merchant.status !== 'ACTIVE') return { kind: 'refused', why: `merchant ${merchant.mid} is suspended` };

    const payouts = params.lines.map((l) => parseBulkItem(l.item));
    const overLimit = overMerchantLimit(merchant, params.lines, payouts);
    if (overLimit) return { kind: 'refused', why: overLimit };
    const used = await usedMeanwhile(tx, merchant.id, params.batchId, params.lines, payouts, 'meanwhile');
    if (used) return { kind: 'refused', why: used };
    const totalPaise = BigInt(params.totalPaise);
    const availablePaise = (await findWallet(tx, merchant.id))?.availablePaise ?? 0n;
    if (availablePaise < totalPaise) return { kind: 'refused', why: shortBy(merchant.mid, totalPaise, availablePaise) };

    const accepted = await acceptPayoutsInTransaction(
      tx,
      payouts.map((p) => ({ ...p, merchantId: merchant.id, ackNo: newAckNo() })),
    );
    // Checked above, but accept_payouts has the last word, under the wallet's row lock: a line it did not
    // reserve (a TransactionID taken since, a balance drained since, payouts waiting for balance ahead of it)
    // refuses the batch, and the approver's transaction rolls back everything it did.
    const missed = accepted.findIndex((a) => a.outcome !== 'accepted' || a.payout.state !== 'ACCEPTED');
    if (missed >= 0) {
      const { outcome, payout } = accepted[missed]!;
      const line = params.lines[missed]!.line;
      const why =
        outcome === 'existing'
          ? `line ${line}: TransactionID ${payout.transactionId} was used meanwhile`
          : outcome === 'rejected'
            ? shortBy(merchant.mid, totalPaise, availablePaise)
            : `line ${line}: payouts of ${merchant.mid} are waiting for balance, and the batch would wait behind them`;
      return { kind: 'refused', why };
    }
    const recorded = await recordBulkBatch(tx, {
      merchantId: merchant.id,
      batchId: params.batchId,
      itemsDigest: params.itemsDigest,
      items: accepted.map((a, index) => ({ index, payoutId: a.payout.id })),
    });
    if (!recorded) return { kind: 'refused', why: `BatchID ${params.batchId} was used meanwhile` };

    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'payout.bulk', {
      merchantId: merchant.id,
      detail: {
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
        batchId: params.batchId,
        total: accepted.length,
        accepted: accepted.length,
        amountPaise: totalPaise,
      },
    });
    const ids = accepted.map((a) => a.payout.id);
    return {
      kind: 'executed',
      outcome: {
        batchId: params.batchId,
        accepted: accepted.length,
        total: formatRupees(totalPaise),
        availableAfter: formatRupees(availablePaise - totalPaise),
      },
      // The jobs go once the payouts are committed; without a producer, or with Redis away, the sweeper
      // finds them overdue and queues them (apps/worker/src/sweeper.ts).
      ...(producer && {
        afterCommit: async () => {
          await producer.enqueueExecute(ids);
        },
      }),
    };
  },
} satisfies MoneyAction;

/** The first lines over the merchant's own per-mode limit, as the bulk endpoint refuses such an item. */
function overMerchantLimit(
  merchant: MerchantCredentials['merchant'],
  lines: readonly BulkCsvLine[],
  payouts: readonly PayoutRequest[],
): string | undefined {
  const problems = payouts.flatMap((p, i) => {
    const limit = merchant[MERCHANT_LIMIT[p.mode]];
    return p.amountPaise > limit
      ? [`line ${lines[i]!.line}: Amount must be at most ${formatRupees(limit)} for this merchant`]
      : [];
  });
  return listed(problems);
}

/** The BatchID or the first TransactionIDs this merchant has used already, or undefined when none is. */
async function usedMeanwhile(
  db: PrismaClientOrTransaction,
  merchantId: number,
  batchId: string,
  lines: readonly BulkCsvLine[],
  payouts: readonly PayoutRequest[],
  when: 'already' | 'meanwhile',
): Promise<string | undefined> {
  if (await findBulkBatch(db, merchantId, batchId)) return `BatchID ${batchId} was used ${when}`;
  const found = await findPayoutsByTransactionIds(
    db,
    payouts.map((p) => ({ merchantId, transactionId: p.transactionId })),
  );
  const problems = found.flatMap((payout, i) =>
    payout
      ? [`line ${lines[i]!.line}: TransactionID ${payout.transactionId} was used ${when} (Ack_no ${payout.ackNo})`]
      : [],
  );
  return listed(problems);
}

function listed(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return undefined;
  const more = problems.length > LISTED_PROBLEMS ? `; and ${problems.length - LISTED_PROBLEMS} more` : '';
  return `${problems.slice(0, LISTED_PROBLEMS).join('; ')}${more}`;
}

function shortBy(mid: string, totalPaise: Paise, availablePaise: Paise): string {
  return `the batch needs ${formatRupees(totalPaise)} and the main wallet of ${mid} has ${formatRupees(availablePaise)} available`;
}

function previewLine(line: number, payout: PayoutRequest, known: ReadonlySet<string>): PreviewLine {
  return {
    line,
    TransactionID: payout.transactionId,
    mode: payout.mode,
    beneficiary: payout.ifsc === null ? payout.account : `${payout.account} · ${payout.ifsc}`,
    name: payout.name,
    amount: formatRupees(payout.amountPaise),
    beneficiaryIs: known.has(beneficiaryKeyOf(payout)) ? 'paid before' : 'new',
  };
}
