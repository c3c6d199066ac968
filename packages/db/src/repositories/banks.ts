import type { BankControlState, BankDowntime, BankName, DowntimeStatus, PayoutMode } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

// The sponsor banks' state in PostgreSQL (docs/banks.md): downtimes merchants are told of, the operator's
// hold on each bank, and each bank's health as routing last scored it.

/**
 * Opens a downtime of `bank` for `mode`, unless one is open already (at most one per bank and mode, the
 * partial unique index `bank_downtimes_one_open_per_bank_mode`): `opened` says whether this call opened it.
 * The same statement records a `downtime.started` webhook for every merchant with an enabled endpoint
 * (packages/db/sql/functions/enqueue_downtime_webhooks.sql; docs/webhooks.md, "Downtime webhooks"), so the
 * notices exist exactly when the downtime does. `webhookDeliveryIds` are theirs, for a caller that queues
 * first attempts at once; the webhook sweeper queues them otherwise.
 */
export async function openBankDowntime(
  db: PrismaClientOrTransaction,
  downtime: { bank: BankName; mode: PayoutMode; status: DowntimeStatus },
): Promise<{ opened: boolean; webhookDeliveryIds: bigint[] }> {
  const [row] = await db.$queryRaw<{ opened: boolean; delivery_ids: bigint[] }[]>`
    WITH opened AS (
      INSERT INTO bank_downtimes (bank, mode, status)
      VALUES (${downtime.bank}, ${downtime.mode}::payout_mode, ${downtime.status})
      ON CONFLICT (bank, mode) WHERE resolved_at IS NULL DO NOTHING
      RETURNING id
    ), notified AS MATERIALIZED (
      SELECT enqueue_downtime_webhooks(o.id, 'DOWNTIME_STARTED') AS id FROM opened o
    )
    SELECT EXISTS (SELECT 1 FROM opened) AS opened,
           COALESCE((SELECT array_agg(id ORDER BY id) FROM notified), '{}') AS delivery_ids`;
  return { opened: row?.opened ?? false, webhookDeliveryIds: row?.delivery_ids ?? [] };
}

/**
 * Resolves the open downtime of `bank` for `mode`, if there is one: `resolved` says whether this call did. The
 * same statement records a `downtime.resolved` webhook for every merchant with an enabled endpoint, as
 * {@link openBankDowntime} does for the start.
 */
export async function resolveBankDowntime(
  db: PrismaClientOrTransaction,
  downtime: { bank: BankName; mode: PayoutMode },
): Promise<{ resolved: boolean; webhookDeliveryIds: bigint[] }> {
  const [row] = await db.$queryRaw<{ resolved: boolean; delivery_ids: bigint[] }[]>`
    WITH resolved AS (
      UPDATE bank_downtimes SET resolved_at = greatest(now(), since)
       WHERE bank = ${downtime.bank} AND mode = ${downtime.mode}::payout_mode AND resolved_at IS NULL
      RETURNING id
    ), notified AS MATERIALIZED (
      SELECT enqueue_downtime_webhooks(r.id, 'DOWNTIME_RESOLVED') AS id FROM resolved r
    )
    SELECT EXISTS (SELECT 1 FROM resolved) AS resolved,
           COALESCE((SELECT array_agg(id ORDER BY id) FROM notified), '{}') AS delivery_ids`;
  return { resolved: row?.resolved ?? false, webhookDeliveryIds: row?.delivery_ids ?? [] };
}

/** The downtimes open now, oldest first. */
export async function listOpenBankDowntimes(db: PrismaClientOrTransaction): Promise<BankDowntime[]> {
  const rows = await db.bankDowntime.findMany({
    where: { resolvedAt: null },
    orderBy: [{ since: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({
    bank: row.bank,
    mode: row.mode,
    status: row.status as DowntimeStatus,
    since: row.since,
  }));
}

/** Each bank's operator hold; a bank without a row is ACTIVE. */
export async function bankControlStates(db: PrismaClientOrTransaction): Promise<Map<BankName, BankControlState>> {
  const rows = await db.bankControl.findMany();
  return new Map(rows.map((row) => [row.bank, row.state as BankControlState]));
}

/** An operator's hold on a bank as last set: by whom, when and why. */
export interface BankControlRow {
  bank: BankName;
  state: BankControlState;
  reason: string | null;
  changedBy: string;
  changedAt: Date;
}

/** Every bank's operator hold that was ever set, by bank; a bank without a row is ACTIVE. */
export async function listBankControls(db: PrismaClientOrTransaction): Promise<BankControlRow[]> {
  const rows = await db.bankControl.findMany({ orderBy: { bank: 'asc' } });
  return rows.map((row) => ({ ...row, state: row.state as BankControlState }));
}

/** Sets an operator's hold on a bank (the caller audits who and why). */
export async function setBankControl(
  db: PrismaClientOrTransaction,
  control: { bank: BankName; state: BankControlState; reason: string | null; changedBy: string },
): Promise<void> {
  const data = { state: control.state, reason: control.reason, changedBy: control.changedBy, changedAt: new Date() };
  await db.bankControl.upsert({ where: { bank: control.bank }, create: { bank: control.bank, ...data }, update: data });
}

/** A bank's health for one mode as routing last scored it. */
export interface BankHealthRow {
  bank: BankName;
  mode: PayoutMode;
  /** 0..1; null while the window holds too few outcomes. */
  score: number | null;
  paid: number;
  refused: number;
  technical: number;
  timeouts: number;
  eliminated: boolean;
  updatedAt: Date;
}

/** Writes routing's latest scores, one row per bank and mode. */
export async function saveBankHealth(
  db: PrismaClientOrTransaction,
  rows: readonly Omit<BankHealthRow, 'updatedAt'>[],
): Promise<void> {
  for (const row of rows) {
    const data = { ...row, updatedAt: new Date() };
    await db.bankHealth.upsert({
      where: { bank_mode: { bank: row.bank, mode: row.mode } },
      create: data,
      update: data,
    });
  }
}

/** Every bank's last scored health, by bank then mode. */
export async function listBankHealth(db: PrismaClientOrTransaction): Promise<BankHealthRow[]> {
  return db.bankHealth.findMany({ orderBy: [{ bank: 'asc' }, { mode: 'asc' }] });
}
