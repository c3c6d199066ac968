import { z } from 'zod';

/**
 * The sponsor banks payouts are sent through (docs/banks.md). `BANKS` lists them as JSON; unset, there is
 * one bank, `primary`, made of the single-rail settings (RAIL_BASE_URL, RAIL_MAX_TPS,
 * STATEMENT_SETTLEMENT_ACCOUNT), so a deployment configured for one bank keeps working unchanged.
 */

/** A bank's alias: what payouts record and merchants may see (CONTRACT.md, "Several banks"), never its account. */
export const BANK_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** The alias of the one bank made of the single-rail settings when `BANKS` is unset. */
export const DEFAULT_BANK_NAME = 'primary';

export const bankSettingsSchema = z.object({
  name: z.string().regex(BANK_NAME_PATTERN, 'a lowercase alias: letters, digits and -, at most 32'),
  /** Where its payout API answers. */
  baseUrl: z.url(),
  /** The settlement account its statements are for; a statement is matched against this bank's payouts only. */
  settlementAccount: z.string().trim().min(1).optional(),
  /** Calls a second this bank accepts, across every worker process. */
  maxTps: z.number().int().positive().default(500),
  /** The payment modes it serves. */
  modes: z
    .array(z.enum(['IMPS', 'UPI']))
    .min(1)
    .default(['IMPS', 'UPI']),
  /** Share of new payouts among healthy banks serving a mode, relative to the others' weights. */
  weight: z.number().int().min(0).max(1_000).default(1),
  /** Off: no payout is routed to it; payouts already with it keep being asked about. */
  enabled: z.boolean().default(true),
});
export type BankSettings = z.infer<typeof bankSettingsSchema>;

const bankListSchema = z
  .array(bankSettingsSchema)
  .min(1, 'lists at least one bank')
  .superRefine((banks, ctx) => {
    const names = banks.map((bank) => bank.name);
    const accounts = banks.flatMap((bank) => (bank.settlementAccount ? [bank.settlementAccount] : []));
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: 'bank names must differ' });
    if (new Set(accounts).size !== accounts.length)
      ctx.addIssue({ code: 'custom', message: 'two banks cannot share a settlement account' });
  });

/** `BANKS`: a JSON array of {@link BankSettings}; empty or unset means the single-rail settings. */
export const banksSetting = {
  BANKS: z.preprocess((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of banks (docs/banks.md)' });
      return z.NEVER;
    }
  }, bankListSchema.optional()),
};

interface SingleRailSettings {
  BANKS?: BankSettings[] | undefined;
  RAIL_BASE_URL: string;
  RAIL_MAX_TPS?: number;
  STATEMENT_SETTLEMENT_ACCOUNT?: string | undefined;
}

/**
 * The configuration with `banks`, the list every app and the CLI route, ask and reconcile by: `BANKS` as
 * given, or the one bank of the single-rail settings.
 */
export function withBanks<C extends SingleRailSettings>(config: C): C & { banks: BankSettings[] } {
  const banks = config.BANKS ?? [
    {
      name: DEFAULT_BANK_NAME,
      baseUrl: config.RAIL_BASE_URL,
      ...(config.STATEMENT_SETTLEMENT_ACCOUNT !== undefined && {
        settlementAccount: config.STATEMENT_SETTLEMENT_ACCOUNT,
      }),
      maxTps: config.RAIL_MAX_TPS ?? 500,
      modes: ['IMPS', 'UPI'],
      weight: 1,
      enabled: true,
    },
  ];
  return { ...config, banks };
}
