import { randomInt } from 'node:crypto';
import type { Command } from 'commander';
import { cliConfigSchema, ConfigError, isDevelopmentOrTest, loadConfig, nodeEnvSchema } from '@payout/config';
import {
  formatRupees,
  jsonNumber,
  PAYIN_SIGNATURE_HEADER,
  payinSignature,
  stringifyJson,
  type Paise,
} from '@payout/domain';
import { amountArgument, merchantCommand, transactionIdArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** Where `payin simulate` sends its callback and what it signs it with. */
interface PayinSimulatorSettings {
  apiBaseUrl: string;
  secret: string;
}

const MODES = ['INTENT', 'COLLECT', 'QR'] as const;
const STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The simulator signs a callback as the collection provider, which credits a wallet with no request and no
 * second person: a developer's tool, refused anywhere but a developer machine or a test run, whatever secret
 * it holds (NODE_ENV unset is production, as for every app).
 */
function settingsFromEnvironment(): PayinSimulatorSettings {
  try {
    const config = loadConfig(cliConfigSchema);
    if (!isDevelopmentOrTest(config.NODE_ENV)) {
      throw new CommandFailure(
        `payin simulate is for development and tests only (NODE_ENV=development or test; NODE_ENV is ${config.NODE_ENV}, ` +
          'and unset means production): it signs a pay-in callback as the collection provider and credits a ' +
          'wallet with no second person. Nothing was sent. A real pay-in is reported by the provider itself.',
      );
    }
    return { apiBaseUrl: config.API_BASE_URL, secret: config.PAYIN_CALLBACK_SECRET };
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandFailure(error.message);
    throw error;
  }
}

/** Whether this process is a developer machine or a test run; a NODE_ENV the apps refuse is neither. */
function onDeveloperMachine(): boolean {
  try {
    return isDevelopmentOrTest(loadConfig(nodeEnvSchema).NODE_ENV);
  } catch {
    return false;
  }
}

export function registerPayinCommands(
  program: Command,
  context: () => CommandContext,
  settings: () => PayinSimulatorSettings = settingsFromEnvironment,
): void {
  // Outside development the group is not listed (the production image's commands, docs/operations.md), and
  // typed anyway it is refused with the reason.
  const payin = program
    .command('payin', { hidden: !onDeveloperMachine() })
    .description('pay-ins (collections) reported by the collection provider (development and tests only)');

  merchantCommand(
    payin,
    'simulate',
    "act as the collection provider: send a signed pay-in callback through the API's real endpoint (API_BASE_URL)",
  )
    .requiredOption('--amount <amount>', 'rupees, e.g. 500.00', amountArgument)
    .option('--mode <mode>', MODES.join(', '), choice('mode', MODES), 'INTENT')
    .option('--status <status>', STATUSES.join(', '), choice('status', STATUSES), 'SUCCESS')
    .option('--TransactionID <id>', 'the pay-in TransactionID (default: a new one)', transactionIdArgument)
    .option('--account <upi>', "the payer's UPI address (default: none for INTENT, payer.sim@upi otherwise)")
    .option('--utr <reference>', 'the bank reference of a SUCCESS (default: SIM followed by the TransactionID)')
    .action(async (opts: SimulateOptions) => {
      const { out } = context();
      const { apiBaseUrl, secret } = settings();
      const body = callbackBody(opts);
      const url = new URL('/api/callbacks/payin', apiBaseUrl).toString();
      const { status, ok, answer } = await postSigned(url, secret, body);
      const row: Row = { http: status };
      for (const key of ['status', 'outcome', 'credited', 'TransactionID', 'Ack_no', 'Amount', 'mode', 'Bankriff']) {
        const value = answer[key];
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') row[key] = value;
      }
      const notes: Row[] = typeof answer.message === 'string' ? [{ message: answer.message }] : [];
      show(out, { http: status, sent: JSON.parse(body) as unknown, answer }, [
        { rows: [row] },
        ...(notes.length ? [{ rows: notes }] : []),
      ]);
      if (!ok) throw new CommandFailure(`the API answered ${status}`, { silent: out.json });
    });
}

interface SimulateOptions {
  mid: string;
  amount: Paise;
  mode: (typeof MODES)[number];
  status: (typeof STATUSES)[number];
  TransactionID?: string;
  account?: string;
  utr?: string;
}

/** The callback the collection provider would send for `opts`, as JSON text. */
function callbackBody(opts: SimulateOptions): string {
  const transactionId = opts.TransactionID ?? `${Date.now()}${randomInt(1_000, 10_000)}`;
  // Deterministic defaults, so simulating the same TransactionID again is a repeat, not a conflict.
  const account = opts.account ?? (opts.mode === 'INTENT' ? '' : 'payer.sim@upi');
  const bankReference = opts.utr ?? (opts.status === 'SUCCESS' ? `SIM${transactionId}` : '');
  // Amount goes as a JSON number literal (500.00), as providers send it: the API must keep its digits.
  return stringifyJson({
    MID: opts.mid,
    TransactionID: transactionId,
    Amount: jsonNumber(formatRupees(opts.amount)),
    mode: opts.mode,
    account,
    Bankriff: bankReference,
    status: opts.status,
  });
}

/** POSTs the signed callback and reads the API's answer (as JSON, or its text as `body`). */
async function postSigned(
  url: string,
  secret: string,
  body: string,
): Promise<{ status: number; ok: boolean; answer: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [PAYIN_SIGNATURE_HEADER]: payinSignature(secret, Math.floor(Date.now() / 1000), body),
      },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CommandFailure(`could not reach the API at ${url}: ${cause}`);
  }
  const text = await response.text();
  try {
    return { status: response.status, ok: response.ok, answer: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: response.status, ok: response.ok, answer: { body: text } };
  }
}

function choice<T extends string>(name: string, allowed: readonly T[]) {
  return (text: string): T => {
    const value = text.trim().toUpperCase() as T;
    if (!allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}: got "${text}"`);
    return value;
  };
}
