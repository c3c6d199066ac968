import { z } from 'zod';

// The two beneficiary-validation answers (docs/api.md, "Beneficiary validation").

const registeredName = z
  .string()
  .meta({ description: 'The name the bank holds; "" when INVALID.', examples: ['ASHA KUMAR'] });
const verdict = z.enum(['VALID', 'INVALID']).meta({ description: 'Whether the beneficiary exists.' });
const verdictHead = { error: z.literal(false), status_code: z.literal(200), status: verdict };

export const accountVerdictSchema = z
  .object({
    ...verdictHead,
    account: z.string().meta({ examples: ['123456789012'] }),
    ifsc: z.string().meta({ description: 'Upper case.', examples: ['HDFC0001234'] }),
    registered_name: registeredName,
    message: z.string(),
  })
  .meta({ id: 'AccountValidation', description: "The bank's verdict on an account." });

export const upiVerdictSchema = z
  .object({
    ...verdictHead,
    upi: z.string().meta({ examples: ['asha.kumar@okhdfc'] }),
    registered_name: registeredName,
    message: z.string(),
  })
  .meta({ id: 'UpiValidation', description: "The UPI network's verdict on an address." });

export type AccountVerdictBody = z.infer<typeof accountVerdictSchema>;
export type UpiVerdictBody = z.infer<typeof upiVerdictSchema>;

/** The rail's settled word on a beneficiary. */
export interface BeneficiaryVerdict {
  status: z.infer<typeof verdict>;
  /** The name the bank holds; "" when invalid. */
  registeredName: string;
}

const VERDICT_MESSAGES = {
  account: { VALID: 'The beneficiary account exists', INVALID: 'No such beneficiary account at this IFSC' },
  upi: { VALID: 'The UPI address exists', INVALID: 'No such UPI address' },
} as const;

const head = (v: BeneficiaryVerdict) => ({ error: false as const, status_code: 200 as const, status: v.status });

/** POST /api/validate/account's 200 body. */
export function accountVerdictBody(
  v: BeneficiaryVerdict,
  asked: { account: string; ifsc: string },
): AccountVerdictBody {
  return { ...head(v), ...asked, registered_name: v.registeredName, message: VERDICT_MESSAGES.account[v.status] };
}

/** POST /api/validate/upi's 200 body. */
export function upiVerdictBody(v: BeneficiaryVerdict, asked: { upi: string }): UpiVerdictBody {
  return { ...head(v), ...asked, registered_name: v.registeredName, message: VERDICT_MESSAGES.upi[v.status] };
}
