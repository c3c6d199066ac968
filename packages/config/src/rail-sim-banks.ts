import { z } from 'zod';
import { BANK_NAME_PATTERN, DEFAULT_BANK_NAME } from './banks.js';

/**
 * The rail simulator's banks and their faults (docs/rail-sim.md, "Several banks" and "Faults"). One process
 * may serve several simulated banks, each on its own port with its own book, statement account and fault
 * schedule; unset, it serves one bank, `primary`, on RAIL_SIM_PORT, exactly as a single simulator did.
 */

/**
 * What is wrong with a bank, as given in a fault window or switched at run time (`POST /sim/faults`). Every
 * member is optional: a window or a switch says only what it changes.
 */
export const bankFaultsSchema = z
  .object({
    /** `true`: every call of the bank's API answers 503; `"refused"`: the bank's port refuses connections. */
    down: z.union([z.boolean(), z.literal('refused')]).optional(),
    /** Added before every answer of the bank's API, on top of RAIL_SIM_LATENCY_MS: a slow bank. */
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    /** Share of the bank's API calls answered with `errorStatus` before the bank looks at them (0..1). */
    errorRate: z.number().min(0).max(1).optional(),
    /** The 5xx those calls get; 500 unless given. */
    errorStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    /** The status API says NOT_FOUND for a reference the bank accepted less than this long ago. */
    statusLagMs: z.number().int().min(0).max(3_600_000).optional(),
  })
  .strict();
export type BankFaultSetting = z.infer<typeof bankFaultsSchema>;

/** One entry of a bank's fault schedule: from `atMs` after the simulator started, for `forMs` (unset: for good). */
export const faultWindowSchema = bankFaultsSchema
  .extend({
    atMs: z.number().int().min(0),
    forMs: z.number().int().positive().optional(),
  })
  .strict();
export type FaultWindow = z.infer<typeof faultWindowSchema>;

/** The body of `POST /sim/faults`: the faults from now on, for `forMs` if given (then they clear). */
export const faultSwitchSchema = bankFaultsSchema.extend({ forMs: z.number().int().positive().optional() }).strict();
export type FaultSwitch = z.infer<typeof faultSwitchSchema>;

/** One simulated bank as `RAIL_SIM_BANKS` lists it. */
const simulatedBankInput = z
  .object({
    name: z.string().regex(BANK_NAME_PATTERN, 'a lowercase alias: letters, digits and -, at most 32'),
    port: z.number().int().min(0).max(65_535),
    /** Its settlement account's number; the first bank's is 50200012345678, each next one's one more. */
    account: z
      .string()
      .regex(/^[0-9]{9,18}$/)
      .optional(),
    /** Its journal; unset, RAIL_SIM_STATE_FILE with the bank's name before the extension (several banks). */
    stateFile: z.string().min(1).optional(),
    faults: z.array(faultWindowSchema).default([]),
  })
  .strict();

/** A simulated bank with every default filled in. */
export interface SimulatedBank {
  name: string;
  port: number;
  /** The settlement account its statements are for. */
  account: string;
  /** The branch's IFSC, which MT940 `:25:` writes before the account. */
  ifsc: string;
  stateFile?: string;
  faults: FaultWindow[];
}

/** The first simulated bank's settlement account; the n-th bank's is this plus n − 1. */
export const FIRST_SIMULATED_ACCOUNT = '50200012345678';

/** The settlement account and branch of the bank at `position` (0 for the first) in the list. */
export function simulatedAccountAt(position: number): { account: string; ifsc: string } {
  return {
    account: (BigInt(FIRST_SIMULATED_ACCOUNT) + BigInt(position)).toString(),
    ifsc: `SIMB${String(position + 1).padStart(7, '0')}`,
  };
}

/**
 * `name:port` pairs separated by commas (`primary:4100,secondary:4101`), or a JSON array of
 * `{ name, port, account?, stateFile?, faults? }`.
 */
function parseBankList(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return undefined;
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of banks or name:port,… (docs/rail-sim.md)' });
      return z.NEVER;
    }
  }
  return text.split(',').map((pair) => {
    const [name = '', port = ''] = pair.trim().split(':');
    return { name, port: /^[0-9]+$/.test(port) ? Number(port) : port };
  });
}

const simulatedBankList = z
  .array(simulatedBankInput)
  .min(1, 'lists at least one bank')
  .superRefine((banks, ctx) => {
    const distinct = (values: unknown[]) => new Set(values).size === values.length;
    if (!distinct(banks.map((b) => b.name))) ctx.addIssue({ code: 'custom', message: 'bank names must differ' });
    if (!distinct(banks.map((b) => b.port).filter((p) => p !== 0)))
      ctx.addIssue({ code: 'custom', message: 'each bank needs a port of its own' });
    if (!distinct(banks.map((b) => b.account).filter((a) => a !== undefined)))
      ctx.addIssue({ code: 'custom', message: 'two banks cannot share a settlement account' });
  });

/** A JSON array of fault windows (RAIL_SIM_FAULTS), empty when unset. */
function parseJsonList(name: string) {
  return (value: unknown, ctx: z.RefinementCtx): unknown => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return undefined;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be a JSON array (docs/rail-sim.md)` });
      return z.NEVER;
    }
  };
}

export const railSimBankSettings = {
  /** Several banks in one process: `primary:4100,secondary:4101`, or JSON with accounts and fault schedules. */
  RAIL_SIM_BANKS: z.preprocess(parseBankList, simulatedBankList.optional()),
  /** The single bank's fault schedule (JSON array of windows); with RAIL_SIM_BANKS each bank has its own. */
  RAIL_SIM_FAULTS: z.preprocess(parseJsonList('RAIL_SIM_FAULTS'), z.array(faultWindowSchema).default([])),
};

interface SingleSimSettings {
  RAIL_SIM_BANKS?: z.infer<typeof simulatedBankList> | undefined;
  RAIL_SIM_FAULTS: FaultWindow[];
  RAIL_SIM_PORT: number;
  RAIL_SIM_STATE_FILE?: string | undefined;
}

/**
 * The banks the simulator serves: RAIL_SIM_BANKS with each bank's account, branch and journal filled in,
 * or the one bank `primary` of the single-bank settings (RAIL_SIM_PORT, RAIL_SIM_STATE_FILE, RAIL_SIM_FAULTS).
 */
export function simulatedBanksOf(config: SingleSimSettings): SimulatedBank[] {
  if (!config.RAIL_SIM_BANKS) {
    return [
      {
        name: DEFAULT_BANK_NAME,
        port: config.RAIL_SIM_PORT,
        ...simulatedAccountAt(0),
        ...(config.RAIL_SIM_STATE_FILE !== undefined && { stateFile: config.RAIL_SIM_STATE_FILE }),
        faults: config.RAIL_SIM_FAULTS,
      },
    ];
  }
  const several = config.RAIL_SIM_BANKS.length > 1;
  return config.RAIL_SIM_BANKS.map((bank, position) => {
    const stateFile =
      bank.stateFile ??
      (config.RAIL_SIM_STATE_FILE === undefined
        ? undefined
        : several
          ? journalOf(config.RAIL_SIM_STATE_FILE, bank.name)
          : config.RAIL_SIM_STATE_FILE);
    const defaults = simulatedAccountAt(position);
    return {
      name: bank.name,
      port: bank.port,
      account: bank.account ?? defaults.account,
      ifsc: defaults.ifsc,
      ...(stateFile !== undefined && { stateFile }),
      faults: bank.faults,
    };
  });
}

/** `bank.jsonl` → `bank.secondary.jsonl`: each bank's own journal beside the file named. */
export function journalOf(stateFile: string, bank: string): string {
  const slash = stateFile.lastIndexOf('/');
  const dot = stateFile.lastIndexOf('.');
  return dot > slash + 1 ? `${stateFile.slice(0, dot)}.${bank}${stateFile.slice(dot)}` : `${stateFile}.${bank}`;
}
