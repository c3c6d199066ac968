-- Written by `pnpm db:function-migration`.

-- Installs packages/db/sql/functions/accept_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function accept_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration accept_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- accept_payouts: the API's hot path, one round trip for one payout or for a batch
-- (packages/db/src/repositories/payout-repository.ts, acceptPayouts).
--
-- For each instruction, in order, inside the caller's single transaction:
--   1. claim merchant + TransactionID (a replay finds the existing payout and changes nothing);
--   2. reserve the amount from the available balance, only if enough is there (the wallet row lock
--      serialises reservations on one wallet; the CHECK on available_paise is the last line of defence);
--   3. record the reservation's two ledger legs (post_ledger_entry) and the payout's first event, or,
--      without enough balance, record the payout as FAILED (so its TransactionID is used up) and reserve
--      nothing — unless the merchant queues payouts when the balance is low (docs/api.md, "Queue if low
--      balance"): then a payout that does not fit, or that arrives while others wait, is QUEUED.
-- A scheduled payout (scheduled_at given; docs/api.md, "Scheduling a payout") is reserved the same way; its
-- next check is its scheduled time, so the worker's sweeper sends it then if its delayed job is lost, and
-- claim_payout_for_bank refuses it before then. Whether the time is within the window is the caller's
-- check, made only for a new payout (a replay is answered whatever the time now).
-- Returns one row per instruction: outcome 'accepted' (reserved, or queued: see the row's state),
-- 'rejected' (insufficient balance) or 'existing'.
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
    beneficiary_name text,
    scheduled_at timestamptz
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
                   email text, description text, scheduled_at timestamptz)
         ORDER BY e.n
    LOOP
        INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status,
                             beneficiary_account, beneficiary_ifsc, beneficiary_name, beneficiary_bank_name,
                             beneficiary_mobile, beneficiary_email, description, scheduled_at, next_check_at)
        VALUES (item.merchant_id, item.transaction_id, item.mode, item.amount_paise, item.ack_no,
                'ACCEPTED', 'PENDING', item.account, item.ifsc, item.name, item.bank_name,
                item.mobile, item.email, item.description, item.scheduled_at, coalesce(item.scheduled_at, now()))
        ON CONFLICT (merchant_id, transaction_id) DO NOTHING
        RETURNING payouts.id INTO new_id;

        IF new_id IS NULL THEN
            RETURN QUERY
                SELECT 'existing', p.id, p.merchant_id, p.transaction_id::text, p.mode::text, p.amount_paise,
                       p.ack_no::text, p.state::text, p.status::text, p.failure_reason::text,
                       p.bank_reference::text, p.beneficiary_account::text, p.beneficiary_ifsc::text,
                       p.beneficiary_name::text, p.scheduled_at::timestamptz
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
                   p.beneficiary_name::text, p.scheduled_at::timestamptz
              FROM payouts p
             WHERE p.id = new_id;
    END LOOP;
END;
$$;

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

-- Installs packages/db/sql/functions/release_queued_payouts.sql as it stood when this migration was written.
-- The current source of the SQL function release_queued_payouts; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration release_queued_payouts` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- release_queued_payouts: reserves a merchant's queued payouts in arrival order while they fit, stopping
-- at the first that does not (a later, smaller one never overtakes it). Expired ones are failed first.
-- Lock order is the wallet row, then the queued payouts — the order of every accept and every posting —
-- so concurrent credits, accepts and releases serialise on the wallet and a payout is released once.
-- A released payout is ACCEPTED with its next step overdue, so the worker's next sweep
-- (SWEEP_INTERVAL_MS) queues its execute job — or, scheduled for later, the first sweep after its scheduled
-- time (docs/api.md, "Scheduling a payout"). Returns how many were released.
CREATE OR REPLACE FUNCTION "release_queued_payouts"(p_merchant_id integer)
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
        -- Dated an hour back: older than any sweep grace, so the next sweep queues it; a scheduled payout's
        -- next check is its scheduled time, as at its accept.
        UPDATE payouts p
           SET state = 'ACCEPTED', next_check_at = greatest(now() - interval '1 hour', p.scheduled_at),
               updated_at = now()
         WHERE p.id = queued.id;
        INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
        VALUES (queued.id, 'QUEUED', 'ACCEPTED', 'released from the queue; amount reserved from the main wallet', 'queue');
        released := released + 1;
    END LOOP;
    RETURN released;
END;
$$;
