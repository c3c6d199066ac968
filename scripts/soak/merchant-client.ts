import { batchesOf, type PlannedPayout } from './payout-mix.js';

export interface MerchantCredentials {
  mid: string;
  token: string;
}

/** What became of one payout request, as the merchant saw it. */
export interface SentPayout {
  planned: PlannedPayout;
  /** Every answer, in order: an HTTP status, or "network" when no answer came. */
  answers: (number | 'network')[];
  /** The definitive answer (202, 200 or 400 with an Ack_no), or null if none came before the deadline. */
  final: { status: number; payoutStatus: string; ackNo: string; bankriff: string } | null;
}

export interface SendOptions {
  apiUrls: () => string[];
  merchants: readonly MerchantCredentials[];
  /** Payouts started per second, spread evenly. */
  ratePerSecond: number;
  /** Requests in flight at most. */
  concurrency: number;
  /** How long one payout is retried before the merchant gives up on it. */
  giveUpAfterMs: number;
}

// What a careful merchant does: anything but a definitive answer (a 503, a 500, a 429, a connection that
// dropped) is sent again, same TransactionID and details, after a growing pause — safe because the
// gateway treats the repeat as the same payout.
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/**
 * Sends every planned payout at the given pace, retrying each until it gets a definitive answer; a bulk
 * batch goes when its leader's turn comes, and is retried whole.
 */
export async function sendPayouts(planned: readonly PlannedPayout[], options: SendOptions): Promise<SentPayout[]> {
  const results: SentPayout[] = new Array<SentPayout>(planned.length);
  const batches = batchesOf(planned);
  const started = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < planned.length) {
      const payout = planned[next++]!;
      if (payout.batch !== null && payout.batch !== payout.index) continue; // sent with its batch
      const due = started + (payout.index * 1000) / options.ratePerSecond;
      if (due > Date.now()) await sleep(due - Date.now());
      if (payout.batch === null) results[payout.index] = await sendOne(payout, options);
      else for (const sent of await sendBatch(batches.get(payout.index)!, options)) results[sent.planned.index] = sent;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return results;
}

async function sendOne(planned: PlannedPayout, options: SendOptions): Promise<SentPayout> {
  const merchant = options.merchants[planned.merchant]!;
  const sent: SentPayout = { planned, answers: [], final: null };
  const giveUpAt = Date.now() + options.giveUpAfterMs;
  for (let attempt = 0; Date.now() < giveUpAt; attempt++) {
    const urls = options.apiUrls();
    const url = urls[(planned.index + attempt) % urls.length]!; // another API on each attempt
    try {
      const response = await fetch(url + planned.path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', MID: merchant.mid, Token: merchant.token },
        body: JSON.stringify(planned.body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      sent.answers.push(response.status);
      if (!RETRYABLE.has(response.status)) {
        const json = JSON.parse(text) as Record<string, unknown>;
        if (typeof json.Ack_no === 'string') {
          sent.final = {
            status: response.status,
            payoutStatus: String(json.status),
            ackNo: json.Ack_no,
            bankriff: typeof json.Bankriff === 'string' ? json.Bankriff : '',
          };
        }
        return sent; // definitive, or a refusal that a repeat would not change (reported as such)
      }
    } catch {
      sent.answers.push('network');
    }
    await sleep(Math.min(2_000, 250 * 2 ** attempt));
  }
  return sent;
}

/**
 * Sends payouts of one merchant as one bulk batch (docs/api.md, "Bulk payouts"). A careful merchant sends
 * the same BatchID with the same items again until it gets the batch's answer: the gateway answers a
 * repeat with the batch's current state, never a second payout.
 */
async function sendBatch(members: readonly PlannedPayout[], options: SendOptions): Promise<SentPayout[]> {
  const leader = members[0]!;
  const merchant = options.merchants[leader.merchant]!;
  const sent = members.map((planned): SentPayout => ({ planned, answers: [], final: null }));
  const body = JSON.stringify({
    BatchID: String(9_000_000 + leader.index),
    Payouts: members.map((p) => ({ ...p.body, Mode: p.mode })),
  });
  const giveUpAt = Date.now() + options.giveUpAfterMs;
  for (let attempt = 0; Date.now() < giveUpAt; attempt++) {
    const urls = options.apiUrls();
    const url = urls[(leader.index + attempt) % urls.length]!;
    try {
      const response = await fetch(url + '/api/bulkpayout', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', MID: merchant.mid, Token: merchant.token },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      for (const s of sent) s.answers.push(response.status);
      if (!RETRYABLE.has(response.status)) {
        const json = JSON.parse(text) as { results?: Record<string, unknown>[] };
        for (const result of json.results ?? []) {
          const s = sent[Number(result.index)];
          if (s && typeof result.Ack_no === 'string') {
            s.final = {
              // Each item's result is what the single endpoint would have answered.
              status: Number(result.status_code),
              payoutStatus: String(result.status),
              ackNo: result.Ack_no,
              bankriff: typeof result.Bankriff === 'string' ? result.Bankriff : '',
            };
          }
        }
        return sent;
      }
    } catch {
      for (const s of sent) s.answers.push('network');
    }
    await sleep(Math.min(2_000, 250 * 2 ** attempt));
  }
  return sent;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
