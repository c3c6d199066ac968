import type pg from 'pg';
import { expect } from 'vitest';
import { loadConfig, workerConfigSchema, type WorkerConfig } from '@payout/config';
import type { RunningApi } from '@payout/api';
import type { RunningWorker } from '@payout/worker';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import type { TestMerchant } from '../support/factories.js';

// What the several-banks tests share: two banks in BANKS, routing's timings in milliseconds, and the payout
// as the database holds it.

/** BANKS for two banks; the first (`primary`) gets nearly every payout while both are healthy. */
export function twoBanks(primaryUrl: string, secondaryUrl: string, weights: [number, number] = [1000, 1]): string {
  return JSON.stringify([
    { name: 'primary', baseUrl: primaryUrl, maxTps: 200, weight: weights[0] },
    { name: 'secondary', baseUrl: secondaryUrl, maxTps: 200, weight: weights[1] },
  ]);
}

/** Routing in milliseconds: a 3 s window, judged after 4 outcomes, back after 2 good probes. */
export const FAST_ROUTING: Partial<Record<keyof WorkerConfig, string>> = {
  ROUTING_WINDOW_MS: '3000',
  ROUTING_MIN_OUTCOMES: '4',
  ROUTING_RECOVER_MIN_OUTCOMES: '2',
  ROUTING_REFRESH_MS: '100',
  ROUTING_HOLD_RETRY_MS: '200',
  RAIL_RESPONSE_TIMEOUT_MS: '1000',
  RAIL_NOT_FOUND_TRUSTED_AFTER_MS: '1500',
};

export interface PayoutRow {
  id: string;
  ack_no: string;
  amount_paise: string;
  state: string;
  failure_reason: string | null;
  bank: string | null;
  routing: { bank: string; reason: string; score: number | null; at: string } | null;
  held_since: Date | null;
}

export async function payoutsOf(pool: pg.Pool, merchantId: number): Promise<PayoutRow[]> {
  const { rows } = await pool.query<PayoutRow>(
    `SELECT id::text, ack_no, amount_paise::text, state::text, failure_reason::text, bank, routing, held_since
       FROM payouts WHERE merchant_id = $1 ORDER BY id`,
    [merchantId],
  );
  return rows;
}

/** Sends `count` IMPS payouts of `amount` each and returns their Ack_nos. */
export async function sendPayouts(
  api: RunningApi,
  merchant: TestMerchant,
  count: number,
  amount = '10.00',
): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, () => call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: amount }) })),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
  return answers.map((a) => a.json.Ack_no as string);
}

/** Waits until every payout of the merchant is in one of `states`. */
export function allIn(pool: pg.Pool, merchantId: number, states: string[], timeoutMs = 20_000): Promise<PayoutRow[]> {
  return eventually(
    () => payoutsOf(pool, merchantId),
    (rows) => rows.length > 0 && rows.every((r) => states.includes(r.state)),
    { timeoutMs, what: `every payout of merchant ${merchantId} to be ${states.join(' or ')}` },
  );
}

export interface Downtime {
  bank: string;
  mode: string;
  status: string;
  resolved: boolean;
}

export async function downtimes(pool: pg.Pool): Promise<Downtime[]> {
  const { rows } = await pool.query<Downtime>(
    `SELECT bank, mode::text, status, resolved_at IS NOT NULL AS resolved FROM bank_downtimes ORDER BY id`,
  );
  return rows;
}

/**
 * Whether the worker's own routing view has `bank` eliminated for `mode`: its `bank_eliminated` gauge, set
 * from the view every refresh. The database says it first; routing acts on the view, up to
 * ROUTING_REFRESH_MS later.
 */
export async function workerSeesEliminated(worker: RunningWorker, bank: string, mode = 'IMPS'): Promise<boolean> {
  const gauge = worker.metrics.registry.getSingleMetric('bank_eliminated');
  const values = gauge ? (await gauge.get()).values : [];
  return values.some((v) => v.labels.bank === bank && v.labels.mode === mode && v.value === 1);
}

export async function eliminated(pool: pg.Pool, bank: string, mode = 'IMPS'): Promise<boolean> {
  const { rows } = await pool.query<{ eliminated: boolean }>(
    'SELECT eliminated FROM bank_health WHERE bank = $1 AND mode = $2',
    [bank, mode],
  );
  return rows[0]?.eliminated ?? false;
}

/**
 * The status-check schedule and NOT_FOUND trust age a deployment runs with (their defaults, packages/config),
 * over FAST_WORKER's milliseconds: IMPS asked a minute after the submit, then every 15 minutes
 * (docs/bank-boundary.md). What a test of a bank's return shows against it is that a caught payout does not
 * wait for its schedule.
 */
export function productionInquirySchedule(): Partial<Record<keyof WorkerConfig, string>> {
  const isSchedule = (key: string) => key.startsWith('INQUIRY_') || key === 'RAIL_NOT_FOUND_TRUSTED_AFTER_MS';
  const defaults = loadConfig(
    workerConfigSchema,
    Object.fromEntries(Object.entries(process.env).filter(([key]) => !isSchedule(key))),
  );
  return Object.fromEntries(
    Object.entries(defaults).flatMap(([key, value]) =>
      isSchedule(key) && typeof value === 'number' ? [[key, String(value)]] : [],
    ),
  );
}

export interface BankHealth {
  score: number | null;
  eliminated: boolean;
  paid: number;
  technical: number;
  timeouts: number;
  updatedAt: Date;
}

/** Routing's last word on a bank for a mode (`bank_health`), or null before it was first scored. */
export async function bankHealth(pool: pg.Pool, bank: string, mode = 'IMPS'): Promise<BankHealth | null> {
  const { rows } = await pool.query<BankHealth>(
    `SELECT score, eliminated, paid, technical, timeouts, updated_at AS "updatedAt"
       FROM bank_health WHERE bank = $1 AND mode = $2`,
    [bank, mode],
  );
  return rows[0] ?? null;
}

/**
 * Waits until routing has scored the bank again more than a second after `lastAnswerAt` (its last answer to
 * a submit). The health window counts outcomes per second, and a second holding both a paid payout and a
 * failure ends a run of failures (docs/banks.md, "Health"): failures sent after this start in a second of
 * their own, so the run counts every one of them.
 */
export function scoredAfter(pool: pg.Pool, bank: string, lastAnswerAt: number): Promise<BankHealth | null> {
  return eventually(
    () => bankHealth(pool, bank),
    (health) => health !== null && health.updatedAt.getTime() >= lastAnswerAt + 1_100,
    { what: `routing to score ${bank} a second after its last answer` },
  );
}

/** The payouts with these Ack_nos, as the database holds them. */
export async function payoutsByAckNo(pool: pg.Pool, ackNos: readonly string[]): Promise<PayoutRow[]> {
  const { rows } = await pool.query<PayoutRow>(
    `SELECT id::text, ack_no, amount_paise::text, state::text, failure_reason::text, bank, routing, held_since
       FROM payouts WHERE ack_no = ANY($1) ORDER BY id`,
    [ackNos],
  );
  return rows;
}
