import type { PayoutListRow } from '@payout/db';
import { ist, rupees } from './format.js';
import { StatusBadge, type Column } from './layout.js';

/** The columns of every list of payouts. */
export const payoutColumns: Column<PayoutListRow>[] = [
  { header: 'Ack_no', cell: (p) => <a href={`/console/payouts/${p.ackNo}`}>{p.ackNo}</a> },
  { header: 'MID', cell: (p) => <a href={`/console/merchants/${encodeURIComponent(p.mid)}`}>{p.mid}</a> },
  { header: 'TransactionID', cell: (p) => p.transactionId },
  { header: 'Mode', cell: (p) => p.mode },
  { header: 'Amount', cell: (p) => rupees(p.amountPaise), numeric: true },
  { header: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
  { header: 'State', cell: (p) => p.state },
  { header: 'UTR', cell: (p) => p.bankReference ?? '' },
  { header: 'Accepted', cell: (p) => ist(p.createdAt) },
];
