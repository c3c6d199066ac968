import type { OperatorActionView } from '@payout/db';
import { ist } from './format.js';
import { RowsTable } from './layout.js';

/** The audit log as a table: who, when, what, why — and the details. */
export function AuditTable(props: { actions: OperatorActionView[]; empty: string }) {
  return (
    <RowsTable
      caption="Audit log"
      rows={props.actions}
      empty={props.empty}
      columns={[
        { header: 'When', cell: (a) => ist(a.at) },
        { header: 'Who', cell: (a) => a.actor },
        { header: 'What', cell: (a) => a.action },
        {
          header: 'On',
          cell: (a) => (
            <>
              {a.mid && <a href={`/console/merchants/${encodeURIComponent(a.mid)}`}>{a.mid}</a>}
              {a.payoutAckNo && (
                <>
                  {' '}
                  <a href={`/console/payouts/${a.payoutAckNo}`}>{a.payoutAckNo}</a>
                </>
              )}
            </>
          ),
        },
        { header: 'Why', cell: (a) => a.reason },
        { header: 'Details', cell: (a) => <code>{JSON.stringify(a.detail)}</code> },
      ]}
    />
  );
}
