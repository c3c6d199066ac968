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
