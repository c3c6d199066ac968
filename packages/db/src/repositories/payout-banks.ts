import type { BankExchange, BankName, PayoutMode, PayoutState, RailAnswer } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

// A payout and its banks (docs/banks.md): what the worker reads of a payout's exchanges with the bank it is
// with, and the hold's expiry. The claim that sends a payout to a bank is claimPayoutForBank
// (payout-transitions.ts).

/**
 * The payout's exchanges with the bank it is with now, oldest first, read from its events (each keeps the
 * rail answer behind it; the one that sent the payout to the bank names the bank): each submit (an event
 * whose submit attempt is new) and each answer. With the merchant's pinned bank, which a move must respect.
 */
export async function bankExchanges(
  db: PrismaClientOrTransaction,
  payoutId: bigint,
): Promise<{ exchanges: BankExchange[]; pinnedBank: BankName | null }> {
  // The events from the one that sent the payout to its current bank on (payouts sent before banks were
  // recorded on events have none: all their events are with the one bank).
  const rows = await db.$queryRaw<{ attempt: number | null; outcome: string | null; at: Date }[]>`
    SELECT attempt, rail_answer->>'outcome' AS outcome, created_at AS at
      FROM payout_events
     WHERE payout_id = ${payoutId}
       AND id >= coalesce((SELECT max(s.id) FROM payout_events s WHERE s.payout_id = ${payoutId} AND s.bank IS NOT NULL), 0)
     ORDER BY id`;
  const [merchant] = await db.$queryRaw<{ pinned_bank: string | null }[]>`
    SELECT m.pinned_bank FROM payouts p JOIN merchants m ON m.id = p.merchant_id WHERE p.id = ${payoutId}`;
  const exchanges: BankExchange[] = [];
  let lastAttempt = 0;
  for (const row of rows) {
    const at = row.at.getTime();
    if (row.attempt !== null && row.attempt > lastAttempt) {
      lastAttempt = row.attempt;
      exchanges.push({ kind: 'submit', at });
    }
    if (row.outcome !== null) exchanges.push({ kind: 'answer', outcome: row.outcome as RailAnswer['outcome'], at });
  }
  return { exchanges, pinnedBank: merchant?.pinned_bank ?? null };
}

/**
 * When the bank the payout is with first refused a submit of it, or null. Only that bank's refusals count: a
 * refusal by the bank it left says nothing of what this one holds.
 */
export async function firstRefusalAtBank(db: PrismaClientOrTransaction, payoutId: bigint): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`
    SELECT min(created_at) AS at
      FROM payout_events
     WHERE payout_id = ${payoutId} AND rail_answer->>'outcome' = 'REFUSED'
       AND id >= coalesce((SELECT max(s.id) FROM payout_events s WHERE s.payout_id = ${payoutId} AND s.bank IS NOT NULL), 0)`;
  return row?.at ?? null;
}

/**
 * Puts off a payout's next check without a step of its own (its bank is paused: no call may be made), so
 * the sweeper does not take it for lost. Only while it is still where the caller found it.
 */
export async function postponeNextCheck(
  db: PrismaClientOrTransaction,
  payout: { id: bigint; state: PayoutState; inquiryAttempts: number },
  at: Date,
): Promise<boolean> {
  const changed = await db.$executeRaw`
    UPDATE payouts SET next_check_at = ${at}, updated_at = now()
     WHERE id = ${payout.id} AND state = ${payout.state}::payout_state AND inquiry_attempts = ${payout.inquiryAttempts}`;
  return changed === 1;
}

/** A payout failed by the hold's expiry, with the webhook delivery recorded for it (or null). */
export interface ExpiredHold {
  payoutId: bigint;
  webhookDeliveryId: bigint | null;
}

/**
 * Fails the payouts held past their merchant's hold window with BANK_DOWNTIME, releasing each reservation
 * and telling the merchant (the table of transitions' `hold-expiry` row): one payout, or every one (the
 * sweeper). SQL function `expire_held_payouts` (packages/db/sql/functions/expire_held_payouts.sql).
 */
export async function expireHeldPayouts(
  db: PrismaClientOrTransaction,
  options: { payoutId?: bigint; actor?: string } = {},
): Promise<ExpiredHold[]> {
  const rows = await db.$queryRaw<{ payout_id: bigint; webhook_delivery_id: bigint | null }[]>`
    SELECT * FROM expire_held_payouts(${options.payoutId ?? null}::bigint, ${options.actor ?? 'sweeper'})`;
  return rows.map((r) => ({ payoutId: r.payout_id, webhookDeliveryId: r.webhook_delivery_id }));
}

/** A payout whose status check was brought forward: the inquiry it now waits for is `inquiryAttempts + 1`. */
export interface CheckDueNow {
  id: bigint;
  inquiryAttempts: number;
}

/**
 * Brings forward the next status check of every payout `bank` holds with an unknown outcome in `modes`
 * (docs/banks.md, "When a bank comes back"): the bank is answering again, so what became of the payouts
 * its outage caught is asked now instead of on their schedule. A check already due within `inFlightMs` is
 * left alone — it is due anyway, or being asked right now (a claimed check's next_check_at is the rail's
 * window ahead) — so calling this from several workers at once brings each payout forward once. Each payout
 * gets an event saying why its check came early.
 */
export async function bringChecksForward(
  db: PrismaClientOrTransaction,
  input: { bank: BankName; modes: readonly PayoutMode[]; inFlightMs: number; reason: string; actor: string },
): Promise<CheckDueNow[]> {
  const rows = await db.$queryRaw<{ id: bigint; inquiry_attempts: number }[]>`
    WITH due AS (
      UPDATE payouts SET next_check_at = now(), updated_at = now()
       WHERE bank = ${input.bank} AND mode::text = ANY(${[...input.modes]}::text[])
         AND state = 'OUTCOME_UNKNOWN'
         AND next_check_at > now() + make_interval(secs => ${input.inFlightMs / 1000})
      RETURNING id, inquiry_attempts
    ), noted AS (
      INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
      SELECT id, 'OUTCOME_UNKNOWN', 'OUTCOME_UNKNOWN', ${input.reason}, ${input.actor} FROM due
    )
    SELECT id, inquiry_attempts FROM due ORDER BY id`;
  return rows.map((r) => ({ id: r.id, inquiryAttempts: r.inquiry_attempts }));
}
