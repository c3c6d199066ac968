-- One posting primitive for every money movement, reversals, and the record of where the bank and our
-- books disagree (docs/reconciliation.md, docs/ledger.md).

-- ---------------------------------------------------------------------------------------------------
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
-- ---------------------------------------------------------------------------------------------------
CREATE FUNCTION "post_ledger_entry"(
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

-- For a movement that must happen together with the state change that causes it (settlement, release,
-- reversal): anything but 'posted' aborts the whole statement, so the state never moves without its money.
CREATE FUNCTION "post_ledger_entry_or_abort"(
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
    v_result text;
BEGIN
    v_result := post_ledger_entry(p_merchant_id, p_kind, p_amount_paise, p_payout_id, p_collection_id, p_reference);
    IF v_result <> 'posted' THEN
        RAISE EXCEPTION 'ledger entry % of % paise for merchant % (payout %) not posted: %',
            p_kind, p_amount_paise, p_merchant_id, p_payout_id, v_result USING ERRCODE = 'check_violation';
    END IF;
    RETURN v_result;
END;
$$;

-- accept_payouts (20261121010000_accept_payouts) again, the same story, its reservation now posted
-- through post_ledger_entry.
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

        IF post_ledger_entry(item.merchant_id, 'PAYOUT_RESERVE', item.amount_paise, new_id) = 'posted' THEN
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

-- ---------------------------------------------------------------------------------------------------
-- Reversals: a SUCCESS payout may become REVERSED (FAILED to the merchant, its UTR kept).
-- ---------------------------------------------------------------------------------------------------
ALTER TABLE "payouts"
    DROP CONSTRAINT "payouts_status_matches_state",
    DROP CONSTRAINT "payouts_success_has_bank_reference",
    DROP CONSTRAINT "payouts_failed_has_reason",
    DROP CONSTRAINT "payouts_settled_when_terminal";

ALTER TABLE "payouts"
    ADD CONSTRAINT "payouts_status_matches_state" CHECK (
        CASE "state"
            WHEN 'SUCCESS' THEN "status" = 'SUCCESS'
            WHEN 'FAILED' THEN "status" = 'FAILED'
            WHEN 'REVERSED' THEN "status" = 'FAILED'
            ELSE "status" = 'PENDING'
        END),
    -- A reversed payout keeps the UTR of the payment that came back.
    ADD CONSTRAINT "payouts_success_has_bank_reference" CHECK (("state" IN ('SUCCESS', 'REVERSED')) = ("bank_reference" IS NOT NULL)),
    ADD CONSTRAINT "payouts_failed_has_reason" CHECK (("state" IN ('FAILED', 'REVERSED')) = ("failure_reason" IS NOT NULL)),
    ADD CONSTRAINT "payouts_reversed_has_its_reason" CHECK (("state" = 'REVERSED') = ("failure_reason" IS NOT DISTINCT FROM 'REVERSED_BY_BENEFICIARY_BANK')),
    ADD CONSTRAINT "payouts_settled_when_terminal" CHECK (("state" IN ('SUCCESS', 'FAILED', 'REVERSED')) = ("settled_at" IS NOT NULL));

ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_leg_direction";
ALTER TABLE "ledger_entries"
    ADD CONSTRAINT "ledger_entries_leg_direction" CHECK (
        CASE "kind"
            WHEN 'WALLET_CREDIT' THEN ("account" = 'FUNDING' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'COLLECTION_CREDIT' THEN ("account" = 'FUNDING' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'PAYOUT_RESERVE' THEN ("account" = 'MAIN_WALLET' AND "amount_paise" < 0) OR ("account" = 'RESERVED' AND "amount_paise" > 0)
            WHEN 'PAYOUT_SETTLE' THEN ("account" = 'RESERVED' AND "amount_paise" < 0) OR ("account" = 'PAID_OUT' AND "amount_paise" > 0)
            WHEN 'PAYOUT_RELEASE' THEN ("account" = 'RESERVED' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'PAYOUT_REVERSAL' THEN ("account" = 'PAID_OUT' AND "amount_paise" < 0) OR ("account" = 'MAIN_WALLET' AND "amount_paise" > 0)
            WHEN 'PAYOUT_LATE_DEBIT' THEN ("account" = 'MAIN_WALLET' AND "amount_paise" < 0) OR ("account" = 'PAID_OUT' AND "amount_paise" > 0)
        END);

-- A payout is reversed once, so it has at most one reversal notification.
CREATE UNIQUE INDEX "webhook_deliveries_one_reversal_per_payout" ON "webhook_deliveries"("payout_id")
    WHERE "cause" = 'REVERSAL';

-- ---------------------------------------------------------------------------------------------------
-- Discrepancies: the rail (or the statement, or the pay-in provider) said something that contradicts a
-- settled record. Kept until an operator resolves it (`pnpm cli discrepancy resolve`).
-- ---------------------------------------------------------------------------------------------------

-- CreateEnum
CREATE TYPE "discrepancy_kind" AS ENUM ('SUCCESS_AFTER_FAILED', 'FAILED_AFTER_SUCCESS', 'REVERSAL_OF_UNPAID', 'PAYIN_CONFLICT');

-- CreateEnum
CREATE TYPE "discrepancy_status" AS ENUM ('OPEN', 'RESOLVED');

-- CreateTable
CREATE TABLE "discrepancies" (
    "id" BIGSERIAL NOT NULL,
    "kind" "discrepancy_kind" NOT NULL,
    "payout_id" BIGINT,
    "collection_id" BIGINT,
    "source" VARCHAR(20) NOT NULL,
    "report" JSONB,
    "note" VARCHAR(500),
    "times_seen" INTEGER NOT NULL DEFAULT 1,
    "status" "discrepancy_status" NOT NULL DEFAULT 'OPEN',
    "resolution" VARCHAR(40),
    "resolution_note" VARCHAR(500),
    "resolved_by" VARCHAR(100),
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "discrepancies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "discrepancies_payout_id_idx" ON "discrepancies"("payout_id");

-- CreateIndex
CREATE INDEX "discrepancies_collection_id_idx" ON "discrepancies"("collection_id");

-- AddForeignKey
ALTER TABLE "discrepancies" ADD CONSTRAINT "discrepancies_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "discrepancies" ADD CONSTRAINT "discrepancies_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "discrepancies"
    -- A pay-in conflict is about a collection; every other kind is about a payout.
    ADD CONSTRAINT "discrepancies_subject_matches_kind" CHECK (
        CASE "kind"
            WHEN 'PAYIN_CONFLICT' THEN "collection_id" IS NOT NULL AND "payout_id" IS NULL
            ELSE "payout_id" IS NOT NULL AND "collection_id" IS NULL
        END),
    ADD CONSTRAINT "discrepancies_source_known" CHECK ("source" IN ('rail', 'statement', 'callback', 'operator')),
    ADD CONSTRAINT "discrepancies_times_seen_positive" CHECK ("times_seen" >= 1),
    -- Resolved means someone decided: what, who and when are recorded together.
    ADD CONSTRAINT "discrepancies_resolved_completely" CHECK (
        ("status" = 'RESOLVED') = ("resolution" IS NOT NULL)
        AND ("status" = 'RESOLVED') = ("resolved_by" IS NOT NULL)
        AND ("status" = 'RESOLVED') = ("resolved_at" IS NOT NULL));

-- One open discrepancy per subject and kind: hearing the same contradiction again counts it, nothing more.
CREATE UNIQUE INDEX "discrepancies_one_open_per_payout_kind" ON "discrepancies"("payout_id", "kind")
    WHERE "status" = 'OPEN' AND "payout_id" IS NOT NULL;
CREATE UNIQUE INDEX "discrepancies_one_open_per_collection_kind" ON "discrepancies"("collection_id", "kind")
    WHERE "status" = 'OPEN' AND "collection_id" IS NOT NULL;

-- Reconcile's "open discrepancies older than a threshold" scan.
CREATE INDEX "discrepancies_open_created_idx" ON "discrepancies"("created_at") WHERE "status" = 'OPEN';
