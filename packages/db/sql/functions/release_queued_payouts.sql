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
