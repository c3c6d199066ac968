-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/enqueue_payout_webhook.sql as it stood when this migration was written.
-- The current source of the SQL function enqueue_payout_webhook; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration enqueue_payout_webhook` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- enqueue_payout_webhook: the one writer of the webhook outbox. Records a delivery of the payout's result,
-- due now, when its merchant has a webhook endpoint; returns its id, or NULL when there is no endpoint
-- (nowhere to deliver to, so nothing is recorded). Called inside the statement that changes the payout
-- (settle_payouts, expire_queued_payouts, reverse_payout), so the notification is recorded with the state
-- change or not at all, and by an operator's replay (packages/db/src/repositories/webhook-delivery-repository.ts,
-- recordWebhookReplay). Its sequence is given by assign_webhook_sequence (docs/webhooks.md). p_merchant_id is
-- the payout's merchant: the callers have it at hand, so the settlement's hot path reads no row for it.
CREATE OR REPLACE FUNCTION "enqueue_payout_webhook"(
    p_merchant_id integer,
    p_payout_id bigint,
    p_cause webhook_delivery_cause,
    p_requested_by text
)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_delivery_id bigint;
BEGIN
    INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
    SELECT p_merchant_id, p_payout_id, p_cause, now(), p_requested_by
      FROM webhook_endpoints e WHERE e.merchant_id = p_merchant_id
    RETURNING id INTO v_delivery_id;
    RETURN v_delivery_id;
END;
$$;

-- Installs packages/db/sql/functions/expire_queued_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function expire_queued_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration expire_queued_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- expire_queued_payouts: fails the queued payouts (of one merchant, or of all when NULL) older than their
-- merchant's queue window. Nothing was reserved, so nothing moves; the merchant is told by webhook as for
-- any failed payout (enqueue_payout_webhook). Returns how many failed.
CREATE OR REPLACE FUNCTION "expire_queued_payouts"(p_merchant_id integer DEFAULT NULL)
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
    ), outbox AS MATERIALIZED (
        -- One row per failed payout (the delivery's id, or NULL without an endpoint); counted below, so every
        -- row is computed.
        SELECT enqueue_payout_webhook(failed.merchant_id, failed.id, 'SETTLEMENT', 'settlement') AS delivery_id
          FROM failed
    )
    SELECT count(*) INTO expired FROM outbox;
    RETURN expired;
END;
$$;

-- Installs packages/db/sql/functions/resolve_discrepancy.sql as it stood when this migration was written.
-- The current source of the SQL function resolve_discrepancy; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration resolve_discrepancy` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- resolve_discrepancy: an operator's resolution of one open discrepancy, with the ledger action the resolution
-- has (docs/reconciliation.md; packages/db/src/repositories/discrepancy-repository.ts, resolveDiscrepancyIn,
-- which checks under the same lock that the resolution is one of the discrepancy kind's):
-- - debit-merchant: the merchant is charged after all (PAYOUT_LATE_DEBIT, MAIN_WALLET → PAID_OUT), with an
--   event on the payout;
-- - reverse: the payout is reversed (reverse_payout, from a state in p_reversible_from);
-- - credit-payin: the pay-in recorded FAILED becomes SUCCESS and credits the main wallet once
--   (COLLECTION_CREDIT);
-- - any other resolution posts nothing.
-- Under the discrepancy's row lock, the money, the subject's state and the discrepancy's RESOLVED move
-- together or not at all. Returns one row: outcome 'resolved' (posted says whether money moved),
-- 'not-found', 'already-resolved', or a refusal that changed nothing — 'insufficient' (the main wallet cannot
-- cover the late debit), 'duplicate' (the merchant was already charged), 'payout-not-reversible' or
-- 'payin-not-failed' (subject_state says what the payout or the pay-in is).
CREATE OR REPLACE FUNCTION "resolve_discrepancy"(
    p_id bigint,
    p_resolution text,
    p_note text,
    p_actor text,
    p_reversible_from payout_state[]
)
RETURNS TABLE (
    outcome text,
    posted boolean,
    subject_state text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_status discrepancy_status;
    v_payout_id bigint;
    v_collection_id bigint;
    v_reason text;
    v_merchant_id integer;
    v_amount_paise bigint;
    v_posting text;
    v_reversal record;
BEGIN
    posted := false;
    subject_state := NULL;
    SELECT d.status, d.payout_id, d.collection_id INTO v_status, v_payout_id, v_collection_id
      FROM discrepancies d WHERE d.id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        outcome := 'not-found';
        RETURN NEXT;
        RETURN;
    END IF;
    IF v_status = 'RESOLVED' THEN
        outcome := 'already-resolved';
        RETURN NEXT;
        RETURN;
    END IF;
    v_reason := format('discrepancy %s resolved: %s', p_id, p_note);

    IF p_resolution = 'debit-merchant' THEN
        SELECT p.merchant_id, p.amount_paise INTO v_merchant_id, v_amount_paise FROM payouts p WHERE p.id = v_payout_id;
        v_posting := post_ledger_entry(v_merchant_id, 'PAYOUT_LATE_DEBIT', v_amount_paise, v_payout_id);
        IF v_posting <> 'posted' THEN
            outcome := v_posting;
            RETURN NEXT;
            RETURN;
        END IF;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        SELECT p.id, p.state, p.state, v_reason || ' (merchant charged: paid at the bank after it failed here)', p_actor
          FROM payouts p WHERE p.id = v_payout_id;
        posted := true;
    ELSIF p_resolution = 'reverse' THEN
        SELECT * INTO v_reversal
          FROM reverse_payout(v_payout_id, p_reversible_from, v_reason || ' (reported by operator)', NULL, NULL,
                              p_actor, 'reversal:operator');
        IF NOT v_reversal.moved THEN
            outcome := 'payout-not-reversible';
            subject_state := v_reversal.from_state;
            RETURN NEXT;
            RETURN;
        END IF;
        posted := true;
    ELSIF p_resolution = 'credit-payin' THEN
        UPDATE collections c SET status = 'SUCCESS', credited_at = now(), updated_at = now()
         WHERE c.id = v_collection_id AND c.status = 'FAILED'
        RETURNING c.merchant_id, c.amount_paise INTO v_merchant_id, v_amount_paise;
        IF NOT FOUND THEN
            outcome := 'payin-not-failed';
            SELECT c.status::text INTO subject_state FROM collections c WHERE c.id = v_collection_id;
            RETURN NEXT;
            RETURN;
        END IF;
        PERFORM post_ledger_entry_or_abort(v_merchant_id, 'COLLECTION_CREDIT', v_amount_paise, NULL, v_collection_id);
        posted := true;
    END IF;

    UPDATE discrepancies d
       SET status = 'RESOLVED', resolution = p_resolution, resolution_note = p_note, resolved_by = p_actor,
           resolved_at = now()
     WHERE d.id = p_id;
    outcome := 'resolved';
    RETURN NEXT;
END;
$$;

-- Installs packages/db/sql/functions/reverse_payout.sql as it stood when this migration was written.
-- The current source of the SQL function reverse_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration reverse_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- reverse_payout: a paid payout came back from the beneficiary's bank (docs/api.md, "Payout results";
-- packages/db/src/repositories/payout-transitions.ts, reversePayout). Under the payout's row lock, only from
-- a state in p_allowed (the state machine's, narrowed by the caller): it becomes REVERSED — FAILED to the
-- merchant, its UTR kept — the amount returns to the main wallet through the ledger (PAYOUT_REVERSAL,
-- PAID_OUT → MAIN_WALLET, posted by post_ledger_entry_or_abort: a posting that cannot be made aborts the
-- statement), the move is recorded in payout_events, and a REVERSAL webhook delivery is recorded
-- (enqueue_payout_webhook) when the merchant has an endpoint. Happens at most once: the ledger's and the
-- outbox's unique constraints back the state check up. Returns one row: whether it moved, the state before
-- (NULL: no such payout) and the delivery recorded (or NULL).
CREATE OR REPLACE FUNCTION "reverse_payout"(
    p_payout_id bigint,
    p_allowed payout_state[],
    p_reason text,
    p_attempt integer,
    p_rail_answer jsonb,
    p_actor text,
    p_requested_by text
)
RETURNS TABLE (
    moved boolean,
    from_state text,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_merchant_id integer;
    v_amount_paise bigint;
BEGIN
    moved := false;
    from_state := NULL;
    webhook_delivery_id := NULL;
    SELECT p.state, p.merchant_id, p.amount_paise INTO v_from, v_merchant_id, v_amount_paise
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF FOUND THEN
        from_state := v_from::text;
        moved := v_from = ANY(p_allowed);
    END IF;
    IF moved THEN
        UPDATE payouts p
           SET state = 'REVERSED', status = 'FAILED', failure_reason = 'REVERSED_BY_BENEFICIARY_BANK',
               next_check_at = NULL, updated_at = now()
         WHERE p.id = p_payout_id;
        PERFORM post_ledger_entry_or_abort(v_merchant_id, 'PAYOUT_REVERSAL', v_amount_paise, p_payout_id);
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
        VALUES (p_payout_id, v_from, 'REVERSED', p_reason, p_attempt, p_rail_answer, p_actor);
        webhook_delivery_id := enqueue_payout_webhook(v_merchant_id, p_payout_id, 'REVERSAL', p_requested_by);
    END IF;
    RETURN NEXT;
END;
$$;

-- Installs packages/db/sql/functions/settle_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function settle_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration settle_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- settle_payouts: the one settlement, for one payout or a batch in one round trip and one commit
-- (packages/db/src/repositories/payout-transitions.ts, settlePayouts; the worker's concurrent jobs share it
-- through apps/worker/src/coalescing-settler.ts). A function rather than a statement sent each time, so
-- PostgreSQL plans it once per connection instead of once per call (docs/performance.md, "The worker's
-- statements").
--
-- Each item of p_items is one settlement: payout_id, outcome (SUCCESS or FAILED), allowed (the states it may
-- happen from), bank_reference or failure_reason, entry (the ledger entry that ends the reservation),
-- and the event's reason, attempt, rail_answer and actor. Under the payout's row lock, only from an
-- allowed state: the terminal state, the ledger entry (posted by post_ledger_entry_or_abort: a posting that
-- cannot be made aborts the whole statement), the event, and — when the merchant has a webhook endpoint —
-- the webhook delivery (enqueue_payout_webhook), so the notification can never be lost. The items are
-- settled in merchant order (then payout order), the order in which accept_payouts batches lock wallets, so
-- two batches can never wait for each other's wallet locks in a cycle. Returns one row per item that names a payout: its position
-- in p_items (from 1), whether it moved, the state before, and the delivery recorded (or null).
CREATE OR REPLACE FUNCTION "settle_payouts"(p_items jsonb)
RETURNS TABLE (
    item integer,
    moved boolean,
    from_state text,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    i record;
    v_payout_id bigint;
    v_outcome payout_state;
    v_from payout_state;
    v_merchant_id integer;
    v_amount_paise bigint;
BEGIN
    FOR i IN
        SELECT e.n, e.value AS v
          FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n)
          LEFT JOIN payouts p ON p.id = (e.value->>'payout_id')::bigint
         ORDER BY p.merchant_id, (e.value->>'payout_id')::bigint, e.n
    LOOP
        v_payout_id := (i.v->>'payout_id')::bigint;
        v_outcome := (i.v->>'outcome')::payout_state;
        SELECT p.state, p.merchant_id, p.amount_paise INTO v_from, v_merchant_id, v_amount_paise
          FROM payouts p WHERE p.id = v_payout_id FOR NO KEY UPDATE;
        CONTINUE WHEN NOT FOUND;

        item := i.n;
        from_state := v_from::text;
        webhook_delivery_id := NULL;
        moved := v_from = ANY(ARRAY(SELECT jsonb_array_elements_text(i.v->'allowed'))::payout_state[]);
        IF moved THEN
            UPDATE payouts p
               SET state = v_outcome, status = v_outcome::text::payout_status,
                   bank_reference = i.v->>'bank_reference', failure_reason = (i.v->>'failure_reason')::failure_reason,
                   settled_at = now(), next_check_at = NULL, updated_at = now()
             WHERE p.id = v_payout_id;
            PERFORM post_ledger_entry_or_abort(v_merchant_id, (i.v->>'entry')::ledger_entry_kind, v_amount_paise,
                                               v_payout_id);
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
            VALUES (v_payout_id, v_from, v_outcome, i.v->>'reason', (i.v->>'attempt')::integer,
                    nullif(i.v->'rail_answer', 'null'::jsonb), i.v->>'actor');
            webhook_delivery_id := enqueue_payout_webhook(v_merchant_id, v_payout_id, 'SETTLEMENT', 'settlement');
        END IF;
        RETURN NEXT;
    END LOOP;
END;
$$;
