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
