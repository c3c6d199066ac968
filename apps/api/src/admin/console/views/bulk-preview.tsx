import { RowsTable, type Column } from './layout.js';

/** Lines of a batch shown on its request's page; the rest are counted (every line is in the request's JSON). */
const SHOWN_LINES = 200;

/** A line of an operator's batch as its preview stores it (packages/use-cases/src/intake/operator-bulk-batch.ts). */
interface BulkPreviewLine {
  line: number;
  TransactionID: string;
  mode: string;
  beneficiary: string;
  name: string;
  amount: string;
  beneficiaryIs: string;
}

const lineColumns: Column<BulkPreviewLine>[] = [
  { header: 'Line', cell: (l) => String(l.line), numeric: true },
  { header: 'Beneficiary', cell: (l) => (l.beneficiaryIs === 'new' ? <strong>new</strong> : l.beneficiaryIs) },
  { header: 'Account or UPI address', cell: (l) => <code>{l.beneficiary}</code> },
  { header: 'Name', cell: (l) => l.name },
  { header: 'Amount (₹)', cell: (l) => l.amount, numeric: true },
  { header: 'Mode', cell: (l) => l.mode },
  { header: 'TransactionID', cell: (l) => <code>{l.TransactionID}</code> },
];

/**
 * An operator's bulk batch as its approver reads it (docs/operations.md, "Bulk payouts from a file"): the
 * count, the total and the wallet before and after, then the lines, those to beneficiaries new to this
 * merchant first, capped with a count of the rest.
 */
export function BulkPreview(props: { preview: Record<string, unknown> }) {
  const p = props.preview;
  const lines = (Array.isArray(p.lines) ? p.lines : []) as BulkPreviewLine[];
  const shown = lines.slice(0, SHOWN_LINES);
  return (
    <>
      <dl class="facts">
        <dt>Merchant</dt>
        <dd>{String(p.mid)}</dd>
        <dt>BatchID</dt>
        <dd>
          <code>{String(p.batchId)}</code>
        </dd>
        <dt>Payouts</dt>
        <dd>{String(p.payouts)}</dd>
        <dt>Total</dt>
        <dd>₹{String(p.total)}</dd>
        <dt>Beneficiaries new to this merchant</dt>
        <dd>{String(p.newBeneficiaries)}</dd>
        <dt>Main wallet available</dt>
        <dd>
          ₹{String(p.availableBefore)} now, ₹{String(p.availableAfter)} after the batch
        </dd>
      </dl>
      <RowsTable caption="The batch's lines, new beneficiaries first" columns={lineColumns} rows={shown} empty="none" />
      {lines.length > shown.length && (
        <p>
          … and {lines.length - shown.length} more lines (every line is in the request's JSON: GET /admin/approvals).
        </p>
      )}
    </>
  );
}
