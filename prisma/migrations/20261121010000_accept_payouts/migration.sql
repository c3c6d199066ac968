-- accept_payouts: the API's hot path, one round trip for one payout or for a batch.
--
-- For each instruction, in order, inside the caller's single transaction:
--   1. claim merchant + TransactionID (a replay finds the existing payout and changes nothing);
--   2. reserve the amount from the available balance, only if enough is there (the wallet row lock
--      serialises reservations on one wallet; the CHECK on available_paise is the last line of defence);
--   3. record the reservation's two ledger legs and the payout's first event, or, without enough balance,
--      record the payout as FAILED (so its TransactionID is used up) and reserve nothing.
-- Returns one row per instruction: outcome 'accepted', 'rejected' (insufficient balance) or 'existing'.
CREATE FUNCTION "accept_payouts"(p_items jsonb)
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

        UPDATE wallets w
           SET available_paise = w.available_paise - item.amount_paise,
               reserved_paise = w.reserved_paise + item.amount_paise,
               updated_at = now()
         WHERE w.merchant_id = item.merchant_id AND w.available_paise >= item.amount_paise;

        IF FOUND THEN
            INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id)
            VALUES (item.merchant_id, 'PAYOUT_RESERVE', 'MAIN_WALLET', -item.amount_paise, new_id),
                   (item.merchant_id, 'PAYOUT_RESERVE', 'RESERVED', item.amount_paise, new_id);
            INSERT INTO payout_events (payout_id, from_state, to_state, reason, actor)
            VALUES (new_id, NULL, 'ACCEPTED', 'accepted; amount reserved from the main wallet', 'api');
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
