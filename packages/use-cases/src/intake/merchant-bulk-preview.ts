import { parseBulkItem } from '@payout/contract';
import {
  beneficiaryKeyOf,
  findBulkBatch,
  findKnownBeneficiaries,
  findPayoutsByTransactionIds,
  findWallet,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { formatRupees, MAX_BULK_ITEMS, type Paise, type PayoutRequest } from '@payout/domain';
import type { Logger } from '@payout/telemetry';
import { batchIdOfDigest, BulkCsvRefused, judgeBulkCsvLines, type BulkCsvRefusedLine } from './bulk-csv.js';
import { MERCHANT_LIMIT, type IntakeMerchant } from './create-payout.js';
import { bulkItemsDigest, submitBulkPayout, type BulkBatchState, type SubmitBulkDeps } from './submit-bulk-payout.js';

// A merchant's own bulk file on its dashboard (docs/dashboard.md, "Bulk upload"): previewed first, then sent
// through the merchant API's own bulk use case (submit-bulk-payout.ts), as the merchant's batch — not an
// operator's, which is a money action with four eyes (operator-bulk-batch.ts beside this file).

/** A payout line of the preview, as the merchant's person is shown it. */
export interface MerchantBulkPreviewLine {
  line: number;
  transactionId: string;
  mode: string;
  beneficiary: string;
  name: string;
  amountPaise: Paise;
  beneficiaryIsNew: boolean;
}

export interface MerchantBulkPreview {
  kind: 'preview';
  /** The BatchID the batch is sent under: from {@link digest}, so the same preview sent twice is one batch. */
  batchId: string;
  /** bulkItemsDigest of {@link items}: what submitBulkPayout records for the batch. */
  digest: string;
  /** The items that will be sent (the payout lines' cells as read), in file order. */
  items: Record<string, string>[];
  lines: MerchantBulkPreviewLine[];
  /** Lines that will not be sent, with the reason. */
  refused: BulkCsvRefusedLine[];
  totalPaise: Paise;
  availablePaise: Paise;
  /** Distinct beneficiaries of the batch this merchant has never paid. */
  newBeneficiaries: number;
}

export type MerchantBulkPreviewOutcome =
  | MerchantBulkPreview
  /** The file as a whole cannot be read (its header, no lines, too many lines). */
  | { kind: 'invalid'; why: string }
  /** The same payouts were sent already: this is that batch. */
  | { kind: 'submitted'; batchId: string };

/**
 * Reads a merchant's CSV (the format of bulk-csv.ts) for its preview: each line judged as the bulk endpoint
 * judges an item (its schema, the merchant's own per-mode limit) and refused when its TransactionID is used
 * already, by this merchant or by an earlier line. Nothing is stored; the lines kept are what the
 * Submit form sends, under a BatchID made from their digest.
 */
export async function previewMerchantBulk(
  deps: { db: PrismaClientOrTransaction },
  input: { merchant: IntakeMerchant; csv: string | Buffer },
): Promise<MerchantBulkPreviewOutcome> {
  const { merchant } = input;
  let judged: ReturnType<typeof judgeBulkCsvLines>;
  try {
    judged = judgeBulkCsvLines(input.csv);
  } catch (error) {
    if (error instanceof BulkCsvRefused) return { kind: 'invalid', why: error.message };
    throw error;
  }
  // A file posted again after its batch was sent: its lines are now "used", so say what they became instead.
  const asFirstRead = bulkItemsDigest(judged.lines.map((l) => l.item));
  const earlier = await findBulkBatch(deps.db, merchant.id, batchIdOfDigest(asFirstRead));
  if (earlier?.itemsDigest === asFirstRead) return { kind: 'submitted', batchId: earlier.batchId };

  const refused = [...judged.refused];
  const payouts = judged.lines.map((l) => parseBulkItem(l.item));
  const found = await findPayoutsByTransactionIds(
    deps.db,
    payouts.map((p) => ({ merchantId: merchant.id, transactionId: p.transactionId })),
  );
  const kept: { line: number; item: Record<string, string>; payout: PayoutRequest }[] = [];
  judged.lines.forEach((l, i) => {
    const payout = payouts[i]!;
    const limit = merchant[MERCHANT_LIMIT[payout.mode]];
    const used = found[i];
    if (payout.amountPaise > limit)
      refused.push({ line: l.line, why: `Amount must be at most ${formatRupees(limit)} for this merchant` });
    else if (used)
      refused.push({ line: l.line, why: `TransactionID ${used.transactionId} is used already (Ack_no ${used.ackNo})` });
    else kept.push({ ...l, payout });
  });
  refused.sort((a, b) => a.line - b.line);

  const known = await findKnownBeneficiaries(
    deps.db,
    merchant.id,
    kept.map((k) => k.payout),
  );
  const items = kept.map((k) => k.item);
  const digest = bulkItemsDigest(items);
  return {
    kind: 'preview',
    batchId: batchIdOfDigest(digest),
    digest,
    items,
    lines: kept.map(({ line, payout }) => ({
      line,
      transactionId: payout.transactionId,
      mode: payout.mode,
      beneficiary: payout.ifsc === null ? payout.account : `${payout.account} · ${payout.ifsc}`,
      name: payout.name,
      amountPaise: payout.amountPaise,
      beneficiaryIsNew: !known.has(beneficiaryKeyOf(payout)),
    })),
    refused,
    totalPaise: kept.reduce((sum, k) => sum + k.payout.amountPaise, 0n),
    availablePaise: (await findWallet(deps.db, merchant.id))?.availablePaise ?? 0n,
    newBeneficiaries: new Set(
      kept.filter((k) => !known.has(beneficiaryKeyOf(k.payout))).map((k) => beneficiaryKeyOf(k.payout)),
    ).size,
  };
}

export type SubmitPreviewedBulkOutcome =
  | { kind: 'submitted'; batch: BulkBatchState }
  /** The items are not what the digest says was previewed (a changed or truncated form): nothing was sent. */
  | { kind: 'not-previewed' };

/**
 * Sends previewed items as the merchant's batch, through the merchant API's bulk use case, under the BatchID
 * made from the preview's digest: a second post of the same Submit form (a double click, the back button)
 * answers the batch the first one made, and pays nothing twice (docs/api.md, "Bulk payouts").
 */
export async function submitPreviewedBulk(
  deps: SubmitBulkDeps,
  input: { merchant: IntakeMerchant; items: readonly unknown[]; digest: string; log: Logger },
): Promise<SubmitPreviewedBulkOutcome> {
  if (input.items.length === 0 || input.items.length > MAX_BULK_ITEMS || bulkItemsDigest(input.items) !== input.digest)
    return { kind: 'not-previewed' };
  const batch = await submitBulkPayout(deps, {
    merchant: input.merchant,
    batchId: batchIdOfDigest(input.digest),
    payouts: input.items,
    log: input.log,
  });
  return { kind: 'submitted', batch };
}
