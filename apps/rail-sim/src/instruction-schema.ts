import type { PayoutInstruction } from '@payout/rails';
import { z } from 'zod';

// The bank's own rules for an instruction. They are deliberately strict, so a client bug (an amount sent as
// a number, an IFSC on a UPI payout) shows up as a 400 here rather than as a payment to the wrong place.
const common = {
  reference: z.string().regex(/^[A-Za-z0-9]{1,35}$/, 'must be 1-35 letters and digits'),
  amount_paise: z
    .string({ error: 'must be a string of digits' })
    .regex(/^[1-9][0-9]{0,17}$/, 'must be a positive whole number of paise, written as a string of digits'),
  beneficiary_name: z.string().trim().min(1, 'must not be blank').max(140),
};

const wireInstructionSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({
      ...common,
      mode: z.literal('IMPS'),
      account: z.string().regex(/^[A-Za-z0-9]{1,34}$/, 'must be 1-34 letters and digits'),
      ifsc: z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'must be an IFSC such as HDFC0001234'),
    }),
    z.object({
      ...common,
      mode: z.literal('UPI'),
      account: z.string().regex(/^[A-Za-z0-9._-]{1,256}@[A-Za-z0-9.-]{1,64}$/, 'must be a UPI address'),
      ifsc: z.undefined({ error: 'is for IMPS only' }).optional(),
    }),
  ],
  { error: 'must be IMPS or UPI' },
);

export interface FieldProblem {
  field: string;
  message: string;
}

export type ParsedInstruction = { ok: true; instruction: PayoutInstruction } | { ok: false; problems: FieldProblem[] };

export function parseInstruction(body: unknown): ParsedInstruction {
  const parsed = wireInstructionSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        field: issue.path.join('.') || '(body)',
        message: issue.message,
      })),
    };
  }
  const wire = parsed.data;
  return {
    ok: true,
    instruction: {
      reference: wire.reference,
      mode: wire.mode,
      amountPaise: BigInt(wire.amount_paise),
      account: wire.account,
      ...(wire.ifsc === undefined ? {} : { ifsc: wire.ifsc }),
      beneficiaryName: wire.beneficiary_name,
    },
  };
}
