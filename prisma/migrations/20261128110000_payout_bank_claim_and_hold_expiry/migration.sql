-- Several sponsor banks, the worker's side (docs/banks.md). The event that sends a payout to a bank records
-- the bank: the payout's exchanges with that bank start there, which is what the never-two-banks rule reads
-- (packages/domain/src/bank-handoff.ts). Payouts held through a downtime are found by held_since.
ALTER TABLE "payout_events" ADD COLUMN "bank" VARCHAR(32);

CREATE INDEX "payouts_held_idx" ON "payouts"("held_since") WHERE "held_since" IS NOT NULL AND "state" = 'ACCEPTED';

-- transition_payout now returns the payout's bank too: a new row type, so the old function goes first.
DROP FUNCTION "transition_payout"(bigint, payout_state, payout_state[], timestamptz, boolean, integer, text, integer, jsonb, text);

-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/claim_payout_for_bank.sql as it stood when this migration was written.
-- The current source of the SQL function claim_payout_for_bank; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration claim_payout_for_bank` writes the migration
-- that installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts
-- fails while this file and the migrated database disagree.
--
-- claim_payout_for_bank: the worker's claim before sending a payout to a bank — its first submit, or its move
-- to another bank after its bank's definitive no (packages/db/src/repositories/payout-routing.ts,
-- claimPayoutForBank; docs/banks.md). Routing is decided in the worker, from its cached view of the banks,
-- before the worker knows the payout's mode or merchant: p_routes holds one route per mode, and
-- p_pinned_routes (null when no bank can be pinned) one per pinned bank and mode. A route is
-- `{"decision": {bank, score, reason, at}, "reason": <the event's note>}`, or `{"hold": <why>}`.
--
-- Under the payout's row lock, if its state is one of p_allowed: the route of its mode (its merchant's pinned
-- bank's, if the merchant is pinned and p_pinned_routes has that bank) is taken. A decision moves it to
-- SUBMITTING with its submit counter and next check, records the bank and the decision on the payout, clears
-- held_since, and writes the event (with the bank: the payout's exchanges with a bank start there). A hold
-- keeps an ACCEPTED payout as it is, reserved and unsent: held_since is set if it was not (with an event
-- then), and its next check is p_hold_next_check_at. Returns one row — moved, held, whether the hold is past
-- the merchant's hold window (downtime_hold_seconds since held_since), the state before, and the payout's
-- work columns as they now stand — or no row for no such payout.
CREATE OR REPLACE FUNCTION "claim_payout_for_bank"(
    p_payout_id bigint,
    p_allowed payout_state[],
    p_next_check_at timestamptz,
    p_routes jsonb,
    p_pinned_routes jsonb,
    p_hold_next_check_at timestamptz,
    p_actor text
)
RETURNS TABLE (
    moved boolean,
    held boolean,
    hold_expired boolean,
    from_state text,
    id bigint,
    merchant_id integer,
    mode text,
    amount_paise bigint,
    ack_no text,
    state text,
    beneficiary_account text,
    beneficiary_ifsc text,
    beneficiary_name text,
    submit_attempts integer,
    inquiry_attempts integer,
    next_check_at timestamptz,
    created_at timestamptz,
    bank text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_mode text;
    v_merchant_id integer;
    v_held_since timestamptz;
    v_pin text;
    v_route jsonb;
    v_attempt integer;
    v_bank text;
    v_moved boolean := false;
    v_held boolean := false;
    v_expired boolean := false;
BEGIN
    SELECT p.state, p.mode::text, p.merchant_id, p.held_since INTO v_from, v_mode, v_merchant_id, v_held_since
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_from = ANY(p_allowed) THEN
        v_route := p_routes -> v_mode;
        IF p_pinned_routes IS NOT NULL THEN
            SELECT m.pinned_bank INTO v_pin FROM merchants m WHERE m.id = v_merchant_id;
            IF v_pin IS NOT NULL AND p_pinned_routes -> v_pin -> v_mode IS NOT NULL THEN
                v_route := p_pinned_routes -> v_pin -> v_mode;
            END IF;
        END IF;

        IF v_route ? 'decision' THEN
            UPDATE payouts p
               SET state = 'SUBMITTING',
                   next_check_at = p_next_check_at,
                   submit_attempts = p.submit_attempts + 1,
                   bank = v_route->'decision'->>'bank',
                   routing = v_route->'decision',
                   held_since = NULL,
                   updated_at = now()
             WHERE p.id = p_payout_id
            RETURNING p.submit_attempts, p.bank INTO v_attempt, v_bank;
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, actor, bank)
            VALUES (p_payout_id, v_from, 'SUBMITTING', v_route->>'reason', v_attempt, p_actor, v_bank);
            v_moved := true;
        ELSIF v_from = 'ACCEPTED' THEN
            UPDATE payouts p
               SET held_since = coalesce(p.held_since, now()), next_check_at = p_hold_next_check_at, updated_at = now()
             WHERE p.id = p_payout_id;
            IF v_held_since IS NULL THEN
                INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
                SELECT p_payout_id, 'ACCEPTED', 'ACCEPTED',
                       'held, reserved and unsent: no bank serves ' || v_mode || ' now (' ||
                       coalesce(v_route->>'hold', 'no route') || '); it is sent when one does, and fails with ' ||
                       'BANK_DOWNTIME after ' || m.downtime_hold_seconds || ' s',
                       p_actor
                  FROM merchants m WHERE m.id = v_merchant_id;
            END IF;
            SELECT p.held_since < now() - make_interval(secs => m.downtime_hold_seconds) INTO v_expired
              FROM payouts p JOIN merchants m ON m.id = p.merchant_id WHERE p.id = p_payout_id;
            v_held := true;
        END IF;
    END IF;

    RETURN QUERY
    SELECT v_moved, v_held, coalesce(v_expired, false), v_from::text, p.id, p.merchant_id, p.mode::text,
           p.amount_paise, p.ack_no::text, p.state::text, p.beneficiary_account::text, p.beneficiary_ifsc::text,
           p.beneficiary_name::text, p.submit_attempts, p.inquiry_attempts, p.next_check_at::timestamptz,
           p.created_at::timestamptz, p.bank::text
      FROM payouts p WHERE p.id = p_payout_id;
END;
$$;

-- Installs packages/db/sql/functions/expire_held_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function expire_held_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration expire_held_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- expire_held_payouts: fails the payouts held, reserved and unsent, through a downtime of every bank serving
-- their mode for longer than their merchant's hold window (downtime_hold_seconds since held_since) — one
-- payout (p_payout_id), or all when NULL (the sweeper). The table of transitions' `hold-expiry` row
-- (packages/domain/src/payout-transitions.ts): ACCEPTED → FAILED with BANK_DOWNTIME, the reservation released
-- to the main wallet (post_ledger_entry_or_abort), the event, and the merchant told by webhook
-- (enqueue_payout_webhook). Nothing was sent, so retrying is safe (docs/banks.md, "Holding"). In merchant
-- order, as every wallet-locking batch. Returns each failed payout with its webhook delivery (or null).
CREATE OR REPLACE FUNCTION "expire_held_payouts"(p_payout_id bigint DEFAULT NULL, p_actor text DEFAULT 'sweeper')
RETURNS TABLE (
    payout_id bigint,
    webhook_delivery_id bigint
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    d record;
BEGIN
    FOR d IN
        SELECT p.id, p.merchant_id, p.amount_paise, p.mode::text AS mode, m.downtime_hold_seconds
          FROM payouts p JOIN merchants m ON m.id = p.merchant_id
         WHERE p.state = 'ACCEPTED' AND p.held_since IS NOT NULL
           AND (p_payout_id IS NULL OR p.id = p_payout_id)
           AND p.held_since < now() - make_interval(secs => m.downtime_hold_seconds)
         ORDER BY p.merchant_id, p.id
           FOR NO KEY UPDATE OF p SKIP LOCKED
    LOOP
        UPDATE payouts p
           SET state = 'FAILED', status = 'FAILED', failure_reason = 'BANK_DOWNTIME',
               settled_at = now(), next_check_at = NULL, updated_at = now()
         WHERE p.id = d.id AND p.state = 'ACCEPTED';
        CONTINUE WHEN NOT FOUND;
        PERFORM post_ledger_entry_or_abort(d.merchant_id, 'PAYOUT_RELEASE', d.amount_paise, d.id);
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        VALUES (d.id, 'ACCEPTED', 'FAILED',
                'held ' || d.downtime_hold_seconds || ' s while no bank served ' || d.mode ||
                ': failed with BANK_DOWNTIME, never sent; the reservation is back in the main wallet', p_actor);
        payout_id := d.id;
        webhook_delivery_id := enqueue_payout_webhook(d.merchant_id, d.id, 'SETTLEMENT', 'settlement');
        RETURN NEXT;
    END LOOP;
END;
$$;

-- Installs packages/db/sql/functions/transition_payout.sql as it stood when this migration was written.
-- The current source of the SQL function transition_payout; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration transition_payout` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- transition_payout: the worker's non-terminal moves — the claim before a submit, an inquiry's claim, "ask
-- again later", the hand-over to manual review (packages/db/src/repositories/payout-transitions.ts,
-- transitionPayout). A function rather than a statement sent each time, so PostgreSQL plans it once per
-- connection instead of once per call (docs/performance.md, "The worker's statements").
--
-- Under the payout's row lock: if its state is one of p_allowed (the state machine's table, narrowed by the
-- caller) and, when an inquiry is claimed, exactly p_claim_inquiry − 1 inquiries were made, it moves to p_to
-- with its counters and next check, and the move is recorded in payout_events. Returns one row — whether it
-- moved, the state before, and the payout's work columns (the bank it is with included) as they now stand — or
-- no row for no such payout.
CREATE OR REPLACE FUNCTION "transition_payout"(
    p_payout_id bigint,
    p_to payout_state,
    p_allowed payout_state[],
    p_next_check_at timestamptz,
    p_increment_submit_attempts boolean,
    p_claim_inquiry integer,
    p_reason text,
    p_attempt integer,
    p_rail_answer jsonb,
    p_actor text
)
RETURNS TABLE (
    moved boolean,
    from_state text,
    id bigint,
    merchant_id integer,
    mode text,
    amount_paise bigint,
    ack_no text,
    state text,
    beneficiary_account text,
    beneficiary_ifsc text,
    beneficiary_name text,
    submit_attempts integer,
    inquiry_attempts integer,
    next_check_at timestamptz,
    created_at timestamptz,
    bank text
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_inquiries integer;
    v_moved boolean := false;
BEGIN
    SELECT p.state, p.inquiry_attempts INTO v_from, v_inquiries
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_from = ANY(p_allowed) AND (p_claim_inquiry IS NULL OR v_inquiries = p_claim_inquiry - 1) THEN
        UPDATE payouts p
           SET state = p_to,
               next_check_at = p_next_check_at,
               submit_attempts = p.submit_attempts + CASE WHEN p_increment_submit_attempts THEN 1 ELSE 0 END,
               inquiry_attempts = coalesce(p_claim_inquiry, p.inquiry_attempts),
               updated_at = now()
         WHERE p.id = p_payout_id;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, attempt, rail_answer, actor)
        VALUES (p_payout_id, v_from, p_to, p_reason, p_attempt, p_rail_answer, p_actor);
        v_moved := true;
    END IF;

    RETURN QUERY
    SELECT v_moved, v_from::text, p.id, p.merchant_id, p.mode::text, p.amount_paise, p.ack_no::text, p.state::text,
           p.beneficiary_account::text, p.beneficiary_ifsc::text, p.beneficiary_name::text, p.submit_attempts,
           p.inquiry_attempts, p.next_check_at::timestamptz, p.created_at::timestamptz, p.bank::text
      FROM payouts p WHERE p.id = p_payout_id;
END;
$$;
