import type { ReconBreak } from '@payout/recon';

/**
 * What `recon statement` shows (docs/reconciliation.md): the counts, the files, the entries set aside,
 * what was not checked, earlier runs of the same files, the breaks and the request `--apply` made. It
 * shows the run as JSON, as the command prints it with `--json` and the admin listener answers `--apply`.
 */

type Row = Record<string, string | number | boolean | null>;
type Section = { title: string; rows: Row[] };

/** A run as `statementRunJson` (@payout/use-cases) writes it. */
export interface StatementRunJson {
  /** Null for a read without `--apply`: nothing is stored. */
  runId: string | null;
  valueDates: string[];
  counts: Record<string, number>;
  breaks: ReconBreak[];
  plannedActions: { lineNumber: number; file?: number }[];
  /** Whether what the run found took effect as it was stored (false while it waits for its approval). */
  inEffect: boolean;
  /** The earlier runs' breaks its lines answer (the next-day rule), closed when it takes effect. */
  closesEarlierBreaks: { runId: string; kind: string; reference: string; lineNumber: number; file?: number }[];
  earlierRuns: { id: string; at: string; applied: boolean; operator: string }[];
  statements: Row[];
  setAside: Row[];
  notes: string[];
  approvalId?: string;
  approval?: { id: string; preview: { summary?: string } };
}

/** The sections of the human-readable report, in order. */
export function reportSections(name: string, run: StatementRunJson): Section[] {
  const { approval } = run;
  return [
    {
      title: `Statement ${name} (${run.valueDates.join(', ') || 'no lines'})${run.runId === null ? '' : `, run ${run.runId}`}`,
      rows: Object.entries(run.counts).map(([kind, count]) => ({ class: kind, count })),
    },
    { title: '\nThe file', rows: run.statements },
    ...(run.setAside.length
      ? [{ title: `\nSet aside, not payouts of ours: ${run.setAside.length}`, rows: run.setAside }]
      : []),
    ...(run.notes.length ? [{ title: '\nNot checked', rows: run.notes.map((note) => ({ note })) }] : []),
    ...(run.earlierRuns.length
      ? [
          {
            title: '\nThe same file was run before',
            rows: run.earlierRuns.map((r) => ({ run: r.id, at: r.at, applied: r.applied, operator: r.operator })),
          },
        ]
      : []),
    {
      title: run.breaks.length ? `\nBreaks: ${run.breaks.length}` : '\nNo breaks: the bank and our books agree',
      rows: run.breaks.map(breakRow),
    },
    ...(run.closesEarlierBreaks.length
      ? [
          {
            title: `\nEarlier breaks the bank booked the next day, closed ${run.runId === null ? 'by a run of this statement once it takes effect' : run.inEffect ? 'by this run' : 'once this run is approved'}: ${run.closesEarlierBreaks.length}`,
            rows: run.closesEarlierBreaks.map((c) => ({
              run: c.runId,
              kind: c.kind,
              reference: c.reference,
              ...(c.file !== undefined && { file: c.file }),
              line: c.lineNumber,
            })),
          },
        ]
      : []),
    ...(approval
      ? [
          {
            title: `\nRequest ${approval.id}: ${approval.preview.summary ?? 'apply the statement'}; nothing of this run counts until another approver approves it — its breaks, its statement number, its discrepancies, the earlier breaks it closes`,
            rows: [{ approve: `pnpm cli approval approve --id ${approval.id}` }],
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
