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
-- A payout scheduled for later (scheduled_at after now(); docs/api.md, "Scheduling a payout") is not claimed
-- at all: nothing changes, and the row returned carries scheduled_at so the worker looks again then. The
-- state change below is what makes a schedule sent once, however many jobs or sweeps reach it.
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
    bank text,
    scheduled_at timestamptz
)
LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
    v_from payout_state;
    v_mode text;
    v_merchant_id integer;
    v_held_since timestamptz;
    v_scheduled_at timestamptz;
    v_pin text;
    v_route jsonb;
    v_attempt integer;
    v_bank text;
    v_moved boolean := false;
    v_held boolean := false;
    v_expired boolean := false;
BEGIN
    SELECT p.state, p.mode::text, p.merchant_id, p.held_since, p.scheduled_at
      INTO v_from, v_mode, v_merchant_id, v_held_since, v_scheduled_at
      FROM payouts p WHERE p.id = p_payout_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_from = ANY(p_allowed) AND (v_scheduled_at IS NULL OR v_scheduled_at <= now()) THEN
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
           p.created_at::timestamptz, p.bank::text, p.scheduled_at::timestamptz
      FROM payouts p WHERE p.id = p_payout_id;
END;
$$;
