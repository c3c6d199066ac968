import { sql, sqlRows, type PrismaClientOrTransaction } from '../client.js';

// A merchant's Idempotency-Keys and the answers of the first requests sent with them (docs/api.md, "Idempotency
// keys"; table idempotency_keys). Each function is one statement in its own transaction, so no row lock outlives it.

/** A request that names an Idempotency-Key: whose key, the key, and the digest of its method, path and body. */
export interface KeyedRequest {
  merchantId: number;
  key: string;
  requestDigest: string;
}

/** How long a key is kept after its first request, and how long a claim stands before another may take it over. */
export interface KeyTimes {
  ttlMs: number;
  leaseMs: number;
}

/**
 * What a request found for its key: it `claimed` it (the key was new, expired, or its first request's claim ran
 * past the lease) and runs the operation; or the key is held by a request still `in-flight`; or it was `answered`,
 * with the status and body stored. `claimedAt` names this claim, so that only its own request stores or releases it.
 */
export type KeyClaim =
  | { kind: 'claimed'; claimedAt: Date }
  | { kind: 'in-flight'; requestDigest: string }
  | { kind: 'answered'; requestDigest: string; statusCode: number; body: string };

interface ClaimRow {
  claimed: boolean;
  started_at: Date;
  request_digest: string;
  state: 'IN_FLIGHT' | 'ANSWERED';
  status_code: number | null;
  body: string | null;
}

// A claim races only with twins of the same key; a retry needs a fresh snapshot (below), and twice is plenty.
const CLAIM_ATTEMPTS = 3;

/**
 * Claims the merchant's key for this request, or reads who holds it: one INSERT … ON CONFLICT that takes the key
 * when it is new or may be taken over (past its expiry, or in flight past the lease: its request died), and
 * otherwise reads the row. The row is read from the statement's snapshot, which misses a twin that committed
 * while this statement waited on its lock: then nothing comes back and the claim is simply tried again.
 */
export async function claimIdempotencyKey(
  db: PrismaClientOrTransaction,
  request: KeyedRequest,
  times: KeyTimes,
): Promise<KeyClaim> {
  const { merchantId, key, requestDigest } = request;
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const [row] = await sqlRows<ClaimRow>(
      db,
      sql`
      WITH claimed AS (
        INSERT INTO idempotency_keys AS k (merchant_id, key, request_digest, state, started_at, expires_at)
        VALUES (${merchantId}::int, ${key}, ${requestDigest}, 'IN_FLIGHT', now(),
                now() + ${times.ttlMs}::double precision * interval '1 millisecond')
        ON CONFLICT (merchant_id, key) DO UPDATE
           SET request_digest = EXCLUDED.request_digest, state = 'IN_FLIGHT', status_code = NULL, body = NULL,
               started_at = EXCLUDED.started_at, answered_at = NULL, expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= now()
            OR (k.state = 'IN_FLIGHT' AND k.started_at <= now() - ${times.leaseMs}::double precision * interval '1 millisecond')
        RETURNING k.started_at, k.request_digest, k.state, k.status_code, k.body
      )
      SELECT true AS claimed, c.* FROM claimed c
      UNION ALL
      SELECT false, k.started_at, k.request_digest, k.state, k.status_code, k.body
        FROM idempotency_keys k
       WHERE k.merchant_id = ${merchantId}::int AND k.key = ${key} AND NOT EXISTS (SELECT FROM claimed)
         AND k.expires_at > now()
         AND NOT (k.state = 'IN_FLIGHT' AND k.started_at <= now() - ${times.leaseMs}::double precision * interval '1 millisecond')`,
    );
    if (!row) continue;
    if (row.claimed) return { kind: 'claimed', claimedAt: row.started_at };
    if (row.state === 'IN_FLIGHT') return { kind: 'in-flight', requestDigest: row.request_digest };
    return { kind: 'answered', requestDigest: row.request_digest, statusCode: row.status_code!, body: row.body! };
  }
  throw new Error(`idempotency key of merchant ${merchantId}: no claim and no holder after ${CLAIM_ATTEMPTS} tries`);
}

/**
 * Stores the answer of the request that claimed the key (status and body as sent). Nothing happens when the claim
 * is no longer its own (taken over past the lease): the request that took it over answers for the key.
 */
export async function recordIdempotentAnswer(
  db: PrismaClientOrTransaction,
  claim: { merchantId: number; key: string; claimedAt: Date },
  answer: { statusCode: number; body: string },
): Promise<boolean> {
  const rows = await sqlRows<{ key: string }>(
    db,
    sql`
    UPDATE idempotency_keys
       SET state = 'ANSWERED', status_code = ${answer.statusCode}::int, body = ${answer.body}, answered_at = now()
     WHERE merchant_id = ${claim.merchantId}::int AND key = ${claim.key}
       AND state = 'IN_FLIGHT' AND started_at = ${claim.claimedAt}
    RETURNING key`,
  );
  return rows.length === 1;
}

/** Gives the key up, as if never sent (its request answered 5xx or 429: a retry must run the operation again). */
export async function releaseIdempotencyKey(
  db: PrismaClientOrTransaction,
  claim: { merchantId: number; key: string; claimedAt: Date },
): Promise<void> {
  await sqlRows(
    db,
    sql`
    DELETE FROM idempotency_keys
     WHERE merchant_id = ${claim.merchantId}::int AND key = ${claim.key}
       AND state = 'IN_FLIGHT' AND started_at = ${claim.claimedAt}
    RETURNING key`,
  );
}

/**
 * Deletes up to `limit` keys past their expiry, oldest first, skipping rows a request holds locked at that moment
 * (it is taking the key over); returns how many. Bounded, so the sweep that calls it in a loop holds nothing long.
 */
export async function deleteExpiredIdempotencyKeys(db: PrismaClientOrTransaction, limit: number): Promise<number> {
  const rows = await sqlRows<{ deleted: number }>(
    db,
    sql`
    WITH gone AS (
      DELETE FROM idempotency_keys
       WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE expires_at <= now()
          ORDER BY expires_at LIMIT ${limit}::int FOR UPDATE SKIP LOCKED))
      RETURNING 1
    )
    SELECT count(*)::int AS deleted FROM gone`,
  );
  return rows[0]?.deleted ?? 0;
}
