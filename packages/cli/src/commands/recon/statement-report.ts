import type { ApprovalRequestView, StatementRunReport } from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import type { ReconBreak, SetAside } from '@payout/recon';
import type { AcceptedStatement } from './statement-acceptance.js';

/**
 * What `recon statement` shows (docs/reconciliation.md): the counts, the files, the entries set aside,
 * what was not checked, earlier runs of the same files, the breaks and the request `--apply` made.
 */

type Row = Record<string, string | number | boolean | null>;
type Section = { title: string; rows: Row[] };

/** What the report adds about the files themselves: their statements, the entries set aside and what was not checked. */
export function fileJson(statement: AcceptedStatement): { statements: Row[]; setAside: Row[]; notes: string[] } {
  const several = statement.files.length > 1;
  return {
    statements: statement.files.flatMap((file, index) =>
      file.statements.map((s) => ({
        ...(several && { file: index + 1, name: file.name }),
        format: s.format,
        id: s.id,
        account: s.account,
        sequence: s.sequence,
        date: s.statementDate,
        opening_balance: rupees(s.openingBalancePaise),
        closing_balance: rupees(s.closingBalancePaise),
        entries: s.entries.length,
      })),
    ),
    setAside: statement.setAside.map(setAsideJson),
    notes: statement.notes,
  };
}

function setAsideJson({ entry, file, why }: SetAside): Row {
  return {
    ...(file !== undefined && { file }),
    line: entry.lineNumber,
    class: entry.class,
    type: entry.type,
    amount: formatRupees(entry.amountPaise),
    value_date: entry.valueDate,
    bank_reference: entry.bankReference ?? null,
    narration: entry.narration,
    why,
  };
}

const rupees = (paise: Paise | null) => (paise === null ? null : formatRupees(paise));

/** The sections of the human-readable report, in order. */
export function reportSections(
  name: string,
  report: StatementRunReport,
  file: ReturnType<typeof fileJson>,
  approval: ApprovalRequestView | undefined,
): Section[] {
  return [
    {
      title: `Statement ${name} (${report.valueDates.join(', ') || 'no lines'}), run ${report.runId}`,
      rows: Object.entries(report.counts).map(([kind, count]) => ({ class: kind, count })),
    },
    { title: '\nThe file', rows: file.statements },
    ...(file.setAside.length
      ? [{ title: `\nSet aside, not payouts of ours: ${file.setAside.length}`, rows: file.setAside }]
      : []),
    ...(file.notes.length ? [{ title: '\nNot checked', rows: file.notes.map((note) => ({ note })) }] : []),
    ...(report.earlierRuns.length
      ? [
          {
            title: '\nThe same file was run before',
            rows: report.earlierRuns.map((r) => ({
              run: String(r.id),
              at: r.at.toISOString(),
              applied: r.applied,
              operator: r.operator,
            })),
          },
        ]
      : []),
    {
      title: report.breaks.length ? `\nBreaks: ${report.breaks.length}` : '\nNo breaks: the bank and our books agree',
      rows: report.breaks.map(breakRow),
    },
    ...(approval
      ? [
          {
            title: `\nRequest ${approval.id}: ${approval.summary}; nothing is applied until another approver approves it`,
            rows: [{ approve: `pnpm cli approval approve --id ${approval.id} --operator <approver>` }],
          },
        ]
      : []),
  ];
}

function breakRow(b: ReconBreak): Row {
  return {
    kind: b.kind,
    reference: b.reference,
    ...(b.bank?.file !== undefined && { file: b.bank.file }),
    line: b.bank?.line ?? null,
    bank: b.bank ? `${b.bank.type} ${b.bank.amount} UTR ${b.bank.utr} on ${b.bank.value_date}` : 'nothing',
    here: b.books ? `${b.books.state} ${b.books.amount}${b.books.utr ? ` UTR ${b.books.utr}` : ''}` : 'nothing',
  };
}
