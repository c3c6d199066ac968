-- The current source of the SQL function post_ledger_entry; the database gets it from a migration.
-- To change it: edit this file, then `pnpm db:function-migration post_ledger_entry` writes the migration that
-- installs it (ARCHITECTURE.md, "Changing a SQL function"); packages/db/src/migrate/sql-functions.test.ts fails
-- while this file and the migrated database disagree.
--
-- post_ledger_entry: the one place a ledger entry is written. Every money movement — reservation,
-- settlement, release, reversal, late debit, operator credit, pay-in credit — calls it, so one function
-- holds the rule "two legs that sum to zero, and the wallet columns move with them".
--
-- The accounts each kind moves between are those of packages/domain/src/ledger.ts (test/ledger proves the
-- two agree, and the CHECK ledger_entries_leg_direction backs both). The wallet row is locked first, which
-- serialises every posting on one merchant. Returns
--   'posted'        both legs written and the wallet moved;
--   'duplicate'     this entry (same kind and source) already exists: nothing changed;
--   'insufficient'  the wallet cannot give what the entry takes out (or there is no wallet): nothing changed.
CREATE OR REPLACE FUNCTION "post_ledger_entry"(
    p_merchant_id integer,
    p_kind ledger_entry_kind,
    p_amount_paise bigint,
    p_payout_id bigint DEFAULT NULL,
    p_collection_id bigint DEFAULT NULL,
    p_reference text DEFAULT NULL
)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_from ledger_account;
    v_to ledger_account;
    v_available_delta bigint;
    v_reserved_delta bigint;
    v_available bigint;
    v_reserved bigint;
    v_legs integer;
BEGIN
    IF p_amount_paise IS NULL OR p_amount_paise <= 0 THEN
        RAISE EXCEPTION 'a ledger entry moves a positive amount, not %', p_amount_paise USING ERRCODE = 'check_violation';
    END IF;

    SELECT k.from_account::ledger_account, k.to_account::ledger_account INTO v_from, v_to
      FROM (VALUES ('WALLET_CREDIT', 'FUNDING', 'MAIN_WALLET'),
                   ('COLLECTION_CREDIT', 'FUNDING', 'MAIN_WALLET'),
                   ('PAYOUT_RESERVE', 'MAIN_WALLET', 'RESERVED'),
                   ('PAYOUT_SETTLE', 'RESERVED', 'PAID_OUT'),
                   ('PAYOUT_RELEASE', 'RESERVED', 'MAIN_WALLET'),
                   ('PAYOUT_REVERSAL', 'PAID_OUT', 'MAIN_WALLET'),
                   ('PAYOUT_LATE_DEBIT', 'MAIN_WALLET', 'PAID_OUT')) AS k(kind, from_account, to_account)
     WHERE k.kind = p_kind::text;
    IF v_from IS NULL THEN
        RAISE EXCEPTION 'no ledger rule for entry kind %', p_kind;
    END IF;

    v_available_delta := (CASE WHEN v_to = 'MAIN_WALLET' THEN p_amount_paise ELSE 0 END)
                       - (CASE WHEN v_from = 'MAIN_WALLET' THEN p_amount_paise ELSE 0 END);
    v_reserved_delta := (CASE WHEN v_to = 'RESERVED' THEN p_amount_paise ELSE 0 END)
                      - (CASE WHEN v_from = 'RESERVED' THEN p_amount_paise ELSE 0 END);

    SELECT w.available_paise, w.reserved_paise INTO v_available, v_reserved
      FROM wallets w WHERE w.merchant_id = p_merchant_id FOR UPDATE;
    IF NOT FOUND THEN
        -- Money coming in opens the wallet; nothing can be taken out of a wallet that does not exist.
        IF v_available_delta < 0 OR v_reserved_delta < 0 THEN
            RETURN 'insufficient';
        END IF;
        INSERT INTO wallets (merchant_id) VALUES (p_merchant_id) ON CONFLICT (merchant_id) DO NOTHING;
        SELECT w.available_paise, w.reserved_paise INTO v_available, v_reserved
          FROM wallets w WHERE w.merchant_id = p_merchant_id FOR UPDATE;
    END IF;
    IF v_available + v_available_delta < 0 OR v_reserved + v_reserved_delta < 0 THEN
        RETURN 'insufficient';
    END IF;

    -- The ledger's unique constraints make an entry happen once per source; a repeat writes nothing.
    INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id, collection_id, reference)
    VALUES (p_merchant_id, p_kind, v_from, -p_amount_paise, p_payout_id, p_collection_id, p_reference),
           (p_merchant_id, p_kind, v_to, p_amount_paise, p_payout_id, p_collection_id, p_reference)
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_legs = ROW_COUNT;
    IF v_legs = 0 THEN
        RETURN 'duplicate';
    END IF;
    IF v_legs <> 2 THEN
        -- One leg collided and the other did not (a second terminal entry for a payout, say): refuse it all.
        RAISE EXCEPTION 'ledger entry % for payout % collection % reference % is half a duplicate',
            p_kind, p_payout_id, p_collection_id, p_reference USING ERRCODE = 'unique_violation';
    END IF;

    UPDATE wallets
       SET available_paise = available_paise + v_available_delta,
           reserved_paise = reserved_paise + v_reserved_delta,
           updated_at = now()
     WHERE merchant_id = p_merchant_id;
    RETURN 'posted';
END;
$$;
