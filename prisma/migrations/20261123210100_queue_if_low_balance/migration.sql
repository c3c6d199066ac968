-- Queue if low balance (docs/api.md, "Queue if low balance"; docs/reliability.md, "Queued payouts").
--
-- A merchant who opts in has a payout that does not fit its available balance accepted as QUEUED: PENDING
-- to the merchant, nothing reserved. Queued payouts wait in arrival order (payout id). Every posting that
-- brings money into the main wallet — an operator credit, a pay-in, a failed payout's release, a reversal —
-- releases them in that order while they fit, in the credit's own transaction; a queued payout older than
-- the merchant's queue window fails with "insufficient balance in main wallet", nothing having moved.

ALTER TABLE "merchants"
    ADD COLUMN "queue_if_low_balance" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "queue_window_seconds" INTEGER NOT NULL DEFAULT 259200,
    ADD CONSTRAINT "merchants_queue_window_positive" CHECK ("queue_window_seconds" > 0);

-- A queued payout holds no reservation and has no job: no next step is due.
ALTER TABLE "payouts"
    ADD CONSTRAINT "payouts_queued_has_no_next_check" CHECK ("state" <> 'QUEUED' OR "next_check_at" IS NULL);

-- Each merchant's queue, in arrival order.
CREATE INDEX "payouts_queued_idx" ON "payouts"("merchant_id", "id") WHERE "state" = 'QUEUED';

-- ---------------------------------------------------------------------------------------------------
-- expire_queued_payouts: fails the queued payouts (of one merchant, or of all when NULL) older than their
-- merchant's queue window. Nothing was reserved, so nothing moves; the merchant is told by webhook as for
-- any failed payout. Returns how many failed.
-- ---------------------------------------------------------------------------------------------------
CREATE FUNCTION "expire_queued_payouts"(p_merchant_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    expired integer;
BEGIN
    WITH due AS (
        SELECT p.id, p.merchant_id
          FROM payouts p JOIN merchants m ON m.id = p.merchant_id
         WHERE p.state = 'QUEUED'
           AND (p_merchant_id IS NULL OR p.merchant_id = p_merchant_id)
           AND p.created_at < now() - make_interval(secs => m.queue_window_seconds)
         ORDER BY p.id
           FOR UPDATE OF p SKIP LOCKED
    ), failed AS (
        UPDATE payouts p
           SET state = 'FAILED', status = 'FAILED', failure_reason = 'INSUFFICIENT_BALANCE',
               settled_at = now(), next_check_at = NULL, updated_at = now()
          FROM due
         WHERE p.id = due.id AND p.state = 'QUEUED'
        RETURNING p.id, p.merchant_id
    ), event AS (
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        SELECT id, 'QUEUED', 'FAILED', 'queue window passed without enough balance; nothing was reserved', 'queue'
          FROM failed
    ), outbox AS (
        INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
        SELECT failed.merchant_id, failed.id, 'SETTLEMENT', now(), 'settlement'
          FROM failed JOIN webhook_endpoints e ON e.merchant_id = failed.merchant_id
    )
    SELECT count(*) INTO expired FROM failed;
    RETURN expired;
END;
$$;

-- ---------------------------------------------------------------------------------------------------
-- release_queued_payouts: reserves a merchant's queued payouts in arrival order while they fit, stopping
-- at the first that does not (a later, smaller one never overtakes it). Expired ones are failed first.
-- Lock order is the wallet row, then the queued payouts — the order of every accept and every posting —
-- so concurrent credits, accepts and releases serialise on the wallet and a payout is released once.
-- A released payout is ACCEPTED with its next step overdue, so the worker's next sweep
-- (SWEEP_INTERVAL_MS) queues its execute job. Returns how many were released.
-- ---------------------------------------------------------------------------------------------------
CREATE FUNCTION "release_queued_payouts"(p_merchant_id integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    queued record;
    released integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM payouts p WHERE p.merchant_id = p_merchant_id AND p.state = 'QUEUED') THEN
        RETURN 0;
    END IF;
    PERFORM 1 FROM wallets w WHERE w.merchant_id = p_merchant_id FOR UPDATE;
    PERFORM expire_queued_payouts(p_merchant_id);
    FOR queued IN
        SELECT p.id, p.amount_paise FROM payouts p
         WHERE p.merchant_id = p_merchant_id AND p.state = 'QUEUED'
         ORDER BY p.id
           FOR UPDATE
    LOOP
        EXIT WHEN post_ledger_entry(p_merchant_id, 'PAYOUT_RESERVE', queued.amount_paise, queued.id) <> 'posted';
        -- Dated an hour back: older than any sweep grace, so the next sweep queues it.
        UPDATE payouts p SET state = 'ACCEPTED', next_check_at = now() - interval '1 hour', updated_at = now()
         WHERE p.id = queued.id;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        VALUES (queued.id, 'QUEUED', 'ACCEPTED', 'released from the queue; amount reserved from the main wallet', 'queue');
        released := released + 1;
    END LOOP;
    RETURN released;
END;
$$;

-- Every leg that brings money into a main wallet releases that merchant's queue when its transaction
-- commits — deferred, so the wallet has moved by then whichever statement wrote the leg.
CREATE FUNCTION "release_queued_after_credit"()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM release_queued_payouts(NEW.merchant_id);
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "ledger_credit_releases_queued_payouts"
    AFTER INSERT ON "ledger_entries"
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (NEW."account" = 'MAIN_WALLET' AND NEW."amount_paise" > 0)
    EXECUTE FUNCTION "release_queued_after_credit"();

-- accept_payouts (20261123011000_posting_reversals_discrepancies) again: a payout that does not fit — or
-- that arrives while others wait — is QUEUED when the merchant opted in, instead of refused.
CREATE OR REPLACE FUNCTION "accept_payouts"(p_items jsonb)
RETURNS TABLE (
    outcome text,
    id bigint,
    merchant_id integer,
    transaction_id text,
    mode text,
    amount_paise bigint,
    ack_no text,
    state text,
    status text,
    failure_reason text,
    bank_reference text,
    beneficiary_account text,
    beneficiary_ifsc text,
    beneficiary_name text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    item record;
    new_id bigint;
    queues boolean;
    waits_behind boolean;
BEGIN
    FOR item IN
        SELECT r.*
          FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n),
               jsonb_to_record(e.value) AS r(
                   merchant_id integer, transaction_id text, mode payout_mode, amount_paise bigint,
                   ack_no text, account text, ifsc text, name text, bank_name text, mobile text,
                   email text, description text)
         ORDER BY e.n
    LOOP
        INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status,
                             beneficiary_account, beneficiary_ifsc, beneficiary_name, beneficiary_bank_name,
                             beneficiary_mobile, beneficiary_email, description, next_check_at)
        VALUES (item.merchant_id, item.transaction_id, item.mode, item.amount_paise, item.ack_no,
                'ACCEPTED', 'PENDING', item.account, item.ifsc, item.name, item.bank_name,
                item.mobile, item.email, item.description, now())
        ON CONFLICT (merchant_id, transaction_id) DO NOTHING
        RETURNING payouts.id INTO new_id;

        IF new_id IS NULL THEN
            RETURN QUERY
                SELECT 'existing', p.id, p.merchant_id, p.transaction_id::text, p.mode::text, p.amount_paise,
                       p.ack_no::text, p.state::text, p.status::text, p.failure_reason::text,
                       p.bank_reference::text, p.beneficiary_account::text, p.beneficiary_ifsc::text,
                       p.beneficiary_name::text
                  FROM payouts p
                 WHERE p.merchant_id = item.merchant_id AND p.transaction_id = item.transaction_id;
            CONTINUE;
        END IF;

        SELECT m.queue_if_low_balance INTO queues FROM merchants m WHERE m.id = item.merchant_id;
        IF queues THEN
            -- Arrival order: while anything waits in the merchant's queue, a new payout waits behind it
            -- even if it would fit. The wallet row is locked first, as every posting and every release
            -- does, so a release committing now cannot slip between the check and the queueing.
            PERFORM 1 FROM wallets w WHERE w.merchant_id = item.merchant_id FOR UPDATE;
            waits_behind := EXISTS (SELECT 1 FROM payouts q
                                     WHERE q.merchant_id = item.merchant_id AND q.state = 'QUEUED' AND q.id <> new_id);
        ELSE
            waits_behind := false;
        END IF;

        IF NOT waits_behind
           AND post_ledger_entry(item.merchant_id, 'PAYOUT_RESERVE', item.amount_paise, new_id) = 'posted' THEN
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
            VALUES (new_id, NULL, 'ACCEPTED', 'accepted; amount reserved from the main wallet', 'api');
        ELSIF queues THEN
            UPDATE payouts p SET state = 'QUEUED', next_check_at = NULL WHERE p.id = new_id;
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
            VALUES (new_id, NULL, 'QUEUED',
                    CASE WHEN waits_behind THEN 'queued behind earlier queued payouts; nothing reserved'
                         ELSE 'queued: insufficient balance in main wallet; nothing reserved' END, 'api');
        ELSE
            UPDATE payouts p
               SET state = 'FAILED', status = 'FAILED', failure_reason = 'INSUFFICIENT_BALANCE',
                   settled_at = now(), next_check_at = NULL
             WHERE p.id = new_id;
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
            VALUES (new_id, NULL, 'FAILED', 'insufficient balance in main wallet; nothing reserved', 'api');
        END IF;

        RETURN QUERY
            SELECT CASE WHEN p.state = 'FAILED' THEN 'rejected' ELSE 'accepted' END,
                   p.id, p.merchant_id, p.transaction_id::text, p.mode::text, p.amount_paise,
                   p.ack_no::text, p.state::text, p.status::text, p.failure_reason::text,
                   p.bank_reference::text, p.beneficiary_account::text, p.beneficiary_ifsc::text,
                   p.beneficiary_name::text
              FROM payouts p
             WHERE p.id = new_id;
    END LOOP;
END;
$$;
