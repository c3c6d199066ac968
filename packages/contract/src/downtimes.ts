import { z } from 'zod';
import { DOWNTIME_STATUSES, type BankDowntime } from '@payout/domain';
import { okHead } from './members.js';

// Bank downtimes as merchants see them (CONTRACT.md "Several banks"; docs/api.md, "Downtimes"): the body of
// GET /api/downtimes, and the members a downtime webhook carries (webhook-payload.ts).

export const downtimeSchema = z
  .object({
    mode: z.enum(['IMPS', 'UPI']),
    bank: z.string().meta({
      description: 'The alias of the sponsor bank, as a payout lookup names it (never an account).',
      examples: ['primary'],
    }),
    since: z.iso.datetime().meta({
      description: 'When the downtime began, in UTC (ISO 8601).',
      examples: ['2026-11-28T09:15:00.000Z'],
    }),
    status: z.enum(DOWNTIME_STATUSES).meta({
      description: 'DOWN: the bank is out of routing for the mode; DEGRADED: it still serves it, below par.',
    }),
  })
  .meta({ id: 'Downtime', description: 'A sponsor bank down or degraded for one payment mode.' });

export type DowntimeBody = z.infer<typeof downtimeSchema>;

/** One downtime as the wire writes it. */
export function downtimeMembers(d: BankDowntime): DowntimeBody {
  return { mode: d.mode, bank: d.bank, since: d.since.toISOString(), status: d.status };
}

export const downtimesSchema = z
  .object({
    ...okHead(200, 'Success'),
    downtimes: z.array(downtimeSchema).meta({ description: 'The downtimes open now, oldest first; empty when none.' }),
  })
  .meta({ id: 'Downtimes', description: 'The sponsor banks down or degraded now, per mode.' });

export type DowntimesBody = z.infer<typeof downtimesSchema>;

/** GET /api/downtimes's body: the downtimes open now, oldest first. */
export function downtimesBody(open: readonly BankDowntime[]): DowntimesBody {
  return { error: false, status_code: 200, status: 'Success', downtimes: open.map(downtimeMembers) };
}
