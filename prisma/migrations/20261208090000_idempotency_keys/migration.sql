-- Idempotency keys (docs/api.md, "Idempotency keys"): a merchant's `Idempotency-Key` on a POST and the answer
-- of the first request sent with it, so that the same key and body within 24 hours answers that answer again.
--
-- A row is claimed by the first request (IN_FLIGHT) and holds its answer, status and body exactly as sent,
-- once it is written (ANSWERED); an answer that carried a secret is stored without it. A row past expires_at is
-- taken over by the next request with its key as if absent, and deleted by the worker's sweep
-- (apps/worker/src/sweeper.ts), a bounded batch at a time, oldest first by this index. A key is the merchant's:
-- two merchants may use the same one.
CREATE TYPE "idempotency_key_state" AS ENUM ('IN_FLIGHT', 'ANSWERED');

CREATE TABLE "idempotency_keys" (
    "merchant_id" INTEGER NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "request_digest" CHAR(64) NOT NULL,
    "state" "idempotency_key_state" NOT NULL,
    "status_code" INTEGER,
    "body" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "answered_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("merchant_id", "key")
);

ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
