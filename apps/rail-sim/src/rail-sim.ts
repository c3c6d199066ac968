import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { BankLedger, type BankStats, type DuplicateManner } from './bank-ledger.js';
import type { BankPayout } from './bank-payout.js';
import { createRailSimApp } from './rail-sim-app.js';
import { ReplyScheduler } from './reply-scheduler.js';
import { StateJournal } from './state-journal.js';

export interface RailSimOptions {
  /** Added before every answer of the bank's API. Default 0. */
  latencyMs?: number;
  /** How long a `.22` payout stays PENDING after its submit. Default 2 000. */
  settleAfterMs?: number;
  /** How long the reply to a `.33` submit is held back. Default 60 000. */
  lostReplyMs?: number;
  /** How long a `.66` payout stays PENDING before it is deemed successful. Default 300 000. */
  deemedSuccessMs?: number;
  /** How long after its payment a `.99` payout comes back (REVERSED). Default 60 000. */
  reverseAfterMs?: number;
  /** How long the status API says NOT_FOUND for a `.88` payout it has paid. Default 30 000. */
  statusLagMs?: number;
  /** `refuse`: the strict bank, answering 400 DUPLICATE_REFERENCE to a repeated submit. Default `echo`. */
  duplicates?: DuplicateManner;
  /** Journal every change here and replay it now, so the bank remembers references across restarts. */
  stateFile?: string;
  /** Default: silent. */
  logger?: Logger;
}

/** One listening simulator. */
export interface RailSimServer {
  /** Base URL for clients, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /**
   * Stops listening and ends promptly: answers only waiting out the latency are sent at once, held-back
   * (`.33`) replies are dropped with their connections.
   */
  close(): Promise<void>;
}

export interface RailSim {
  /** Starts serving the bank's API; port 0 picks a free port. Host defaults to 127.0.0.1. */
  listen(port: number, host?: string): Promise<RailSimServer>;
  /** The bank's record of a reference (asking lets a due `.22` payout settle, as the API's GET does). */
  payout(reference: string): BankPayout | undefined;
  /** Every reference the bank holds. */
  payouts(): BankPayout[];
  stats(): BankStats;
}

// A connection still sending its request when the server closes is cut after this long.
const CLOSE_DEADLINE_MS = 2_000;

/**
 * A stand-alone fake bank (IMPS and UPI) over HTTP, with magic amounts that make it fail, stall, lose
 * replies or go down on purpose: see docs/rail-sim.md. Throws {@link StateFileError} for a state file it
 * cannot trust.
 */
export function createRailSim(options: RailSimOptions = {}): RailSim {
  const logger = options.logger ?? pino({ level: 'silent' });
  const latencyMs = options.latencyMs ?? 0;
  const lostReplyMs = options.lostReplyMs ?? 60_000;
  const journal = options.stateFile === undefined ? undefined : new StateJournal(options.stateFile);
  const ledger = new BankLedger({
    settleAfterMs: options.settleAfterMs ?? 2_000,
    deemedSuccessMs: options.deemedSuccessMs ?? 300_000,
    reverseAfterMs: options.reverseAfterMs ?? 60_000,
    statusLagMs: options.statusLagMs ?? 30_000,
    duplicates: options.duplicates ?? 'echo',
    ...(journal ? { journal } : {}),
  });
  if (journal) logger.info({ stateFile: journal.path, ...ledger.stats() }, 'state file replayed');

  return {
    async listen(port, host = '127.0.0.1') {
      const replies = new ReplyScheduler(latencyMs);
      const server = createServer(createRailSimApp({ ledger, replies, lostReplyMs, logger }));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const url = clientUrl(server.address() as AddressInfo);
      let closed: Promise<void> | undefined;

      return {
        url,
        close() {
          closed ??= new Promise<void>((resolve, reject) => {
            server.close((error) => (error ? reject(error) : resolve()));
            replies.close();
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), CLOSE_DEADLINE_MS).unref();
          });
          return closed;
        },
      };
    },
    payout: (reference) => ledger.lookup(reference),
    payouts: () => ledger.all(),
    stats: () => ledger.stats(),
  };
}

function clientUrl(address: AddressInfo): string {
  // A server on every interface is reached through loopback.
  if (address.address === '0.0.0.0') return `http://127.0.0.1:${address.port}`;
  if (address.address === '::') return `http://[::1]:${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
