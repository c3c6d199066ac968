import autocannon from 'autocannon';
import type { BenchMerchant } from './bench-database.js';
import type { CpuSplit } from './cpu-meter.js';

export type PayoutMode = 'IMPS' | 'UPI';

/** What one autocannon run did, reduced to what the bench reports. */
export interface HttpRunResult {
  label: string;
  connections: number;
  /** The rate asked of autocannon (null: as fast as the API answers). */
  requestedRate: number | null;
  durationS: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
  /** Responses with the status that means success here (202 accepted, 200 found). */
  succeeded: number;
  succeededPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  /** Who used the machine's CPU during the run (absent for unmeasured runs). */
  cpu?: CpuSplit;
  /** CPU the server under load (the API, or the reference server) spent per successful response, in ms. */
  apiCpuMsPerSuccess?: number;
}

export interface LoadSpec {
  label: string;
  url: string;
  connections: number;
  durationS: number;
  /** requests per second across all connections; absent: as fast as possible. */
  overallRate?: number;
  requests: autocannon.Request[];
  successStatus: number;
  /** Stops the run early (the bench was interrupted). */
  signal: AbortSignal;
}

export interface RunningLoad {
  done: Promise<HttpRunResult>;
  /** Ends the run now; `done` resolves with what was measured so far. */
  stop(): void;
}

export function startLoad(spec: LoadSpec): RunningLoad {
  let instance: autocannon.Instance | undefined;
  const done = new Promise<HttpRunResult>((resolve, reject) => {
    instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationS,
        ...(spec.overallRate !== undefined && { overallRate: spec.overallRate }),
        requests: spec.requests,
        timeout: 30,
      },
      (error, result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(summarise(spec, result));
      },
    );
  });
  const stop = () => instance?.stop();
  spec.signal.addEventListener('abort', stop, { once: true });
  void done.finally(() => spec.signal.removeEventListener('abort', stop)).catch(() => undefined);
  return { done, stop };
}

function summarise(spec: LoadSpec, result: autocannon.Result): HttpRunResult {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  const succeeded = statuses[String(spec.successStatus)] ?? 0;
  const { latency } = result;
  return {
    label: spec.label,
    connections: spec.connections,
    requestedRate: spec.overallRate ?? null,
    durationS: result.duration,
    statuses,
    succeeded,
    succeededPerSecond: result.duration > 0 ? succeeded / result.duration : 0,
    latencyMs: { mean: latency.mean, p50: latency.p50, p90: latency.p90, p99: latency.p99, max: latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Payout requests as merchants send them: every one a TransactionID never used before, the merchants taken
 * in turn (each with its own MID and Token), IMPS, UPI or the two alternating.
 */
export class PayoutRequests {
  // TransactionIDs of the HTTP loads have 13+ digits; seeded lookups use 1…n and pgbench 18 digits.
  private nextTransactionId = 1_000_000_000_000;
  private nextMerchant = 0;

  requests(modes: readonly PayoutMode[], merchants: readonly BenchMerchant[]): autocannon.Request[] {
    return modes.map((mode) => ({
      method: 'POST',
      path: mode === 'IMPS' ? '/api/impspayout' : '/api/payout',
      setupRequest: (request: autocannon.Request) => {
        const merchant = merchants[this.nextMerchant++ % merchants.length]!;
        const transactionId = String(this.nextTransactionId++);
        return {
          ...request,
          headers: { 'content-type': 'application/json', mid: merchant.mid, token: merchant.token },
          body: JSON.stringify(mode === 'IMPS' ? impsBody(transactionId) : upiBody(transactionId)),
        };
      },
    }));
  }
}

const impsBody = (transactionId: string) => ({
  TransactionID: transactionId,
  Amount: '101.00',
  Account: '123456789012',
  Ifsc: 'HDFC0001234',
  Name: 'Asha Kumar',
  BankName: 'HDFC Bank',
  Mobile: '9876543210',
  Email: 'asha@example.com',
  Description: 'Salary',
});

const upiBody = (transactionId: string) => ({
  TransactionID: transactionId,
  Amount: '101.00',
  Upi: 'asha.kumar@okhdfc',
  Name: 'Asha Kumar',
  Mobile: '9876543210',
  Email: 'asha@example.com',
  Description: 'Refund',
});

/** Status lookups of payouts that exist: a random merchant's TransactionID 1…keys. */
export function lookupRequests(merchants: readonly BenchMerchant[], keys: number): autocannon.Request[] {
  return [
    {
      method: 'GET',
      setupRequest: (request: autocannon.Request) => {
        const merchant = merchants[Math.floor(Math.random() * merchants.length)]!;
        const key = 1 + Math.floor(Math.random() * keys);
        return {
          ...request,
          path: `/api/check_payout_status?TransactionID=${key}`,
          headers: { mid: merchant.mid, token: merchant.token },
        };
      },
    },
  ];
}
