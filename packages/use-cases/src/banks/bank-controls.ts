import {
  listBankControls,
  listBankHealth,
  listOpenBankDowntimes,
  setBankControl,
  type BankControlRow,
  type BankHealthRow,
  type PrismaClient,
} from '@payout/db';
import type { BankControlState, BankDowntime, BankName, PayoutMode } from '@payout/domain';
import { audit, type Requested } from '../audit.js';

/** A configured sponsor bank, as far as the operator's surface needs it (`BANKS`, docs/banks.md). */
export interface ConfiguredBank {
  name: BankName;
  modes: readonly PayoutMode[];
  weight: number;
  maxTps: number;
  enabled: boolean;
}

/** What an operator does to a bank, and the state it leaves it in (docs/operations.md, "Banks: pausing, draining, pinning"). */
export const BANK_CONTROL_ACTIONS = { pause: 'PAUSED', drain: 'DRAINING', resume: 'ACTIVE' } as const satisfies Record<
  string,
  BankControlState
>;
export type BankControlAction = keyof typeof BANK_CONTROL_ACTIONS;

export type SetBankControlOutcome =
  | { kind: 'unknown-bank'; known: BankName[] }
  | { kind: 'unchanged'; state: BankControlState }
  | { kind: 'changed'; from: BankControlState; to: BankControlState };

/**
 * Pauses, drains or resumes a configured bank (docs/operations.md, "Banks: pausing, draining, pinning"). No
 * money moves — routing reads the hold, payouts already with the bank keep being asked about — so one person
 * does it, and the audit log says who and why, in the transaction that sets it. Setting the state it is in
 * already changes nothing and records nothing.
 */
export async function setBankControlAction(
  deps: { db: PrismaClient; banks: readonly ConfiguredBank[] },
  input: Requested & { bank: string; action: BankControlAction },
): Promise<SetBankControlOutcome> {
  if (!deps.banks.some((b) => b.name === input.bank)) {
    return { kind: 'unknown-bank', known: deps.banks.map((b) => b.name) };
  }
  const to = BANK_CONTROL_ACTIONS[input.action];
  return deps.db.$transaction(async (tx) => {
    // The row is locked while it changes, so two people acting at once are recorded in the order they took effect.
    const [current] = await tx.$queryRaw<{ state: BankControlState }[]>`
      SELECT state FROM bank_controls WHERE bank = ${input.bank} FOR UPDATE`;
    const from = current?.state ?? 'ACTIVE';
    if (from === to) return { kind: 'unchanged', state: from } as const;
    await setBankControl(tx, { bank: input.bank, state: to, reason: input.reason, changedBy: input.actor });
    await audit(tx, input, `bank.${input.action}`, { detail: { bank: input.bank, from, to } });
    return { kind: 'changed', from, to } as const;
  });
}

/** One bank as the console's day page, `GET /admin/banks` and `pnpm cli bank list` show it. */
export interface BankOverview extends ConfiguredBank {
  control: Pick<BankControlRow, 'state' | 'reason' | 'changedBy' | 'changedAt'> | { state: 'ACTIVE' };
  /** Routing's last score per mode the bank serves (none before routing first scored it). */
  health: BankHealthRow[];
  /** Its downtimes open now. */
  downtimes: BankDowntime[];
}

/** Every configured bank with its operator hold, its health per mode and its open downtimes, in configuration order. */
export async function bankOverview(deps: {
  db: PrismaClient;
  banks: readonly ConfiguredBank[];
}): Promise<BankOverview[]> {
  const [controls, health, downtimes] = await Promise.all([
    listBankControls(deps.db),
    listBankHealth(deps.db),
    listOpenBankDowntimes(deps.db),
  ]);
  return deps.banks.map((bank) => {
    const control = controls.find((c) => c.bank === bank.name);
    return {
      name: bank.name,
      modes: bank.modes,
      weight: bank.weight,
      maxTps: bank.maxTps,
      enabled: bank.enabled,
      control: control
        ? { state: control.state, reason: control.reason, changedBy: control.changedBy, changedAt: control.changedAt }
        : { state: 'ACTIVE' },
      health: health.filter((h) => h.bank === bank.name),
      downtimes: downtimes.filter((d) => d.bank === bank.name),
    };
  });
}

/** A bank's overview as the admin JSON API answers it and the CLI prints it. */
export function bankJson(b: BankOverview): Record<string, unknown> {
  return {
    bank: b.name,
    modes: b.modes,
    enabled: b.enabled,
    weight: b.weight,
    maxTps: b.maxTps,
    state: b.control.state,
    ...('changedBy' in b.control && {
      reason: b.control.reason,
      changedBy: b.control.changedBy,
      changedAt: b.control.changedAt.toISOString(),
    }),
    health: b.health.map((h) => ({
      mode: h.mode,
      score: h.score,
      eliminated: h.eliminated,
      paid: h.paid,
      refused: h.refused,
      technical: h.technical,
      timeouts: h.timeouts,
      updatedAt: h.updatedAt.toISOString(),
    })),
    downtimes: b.downtimes.map((d) => ({ mode: d.mode, status: d.status, since: d.since.toISOString() })),
  };
}
