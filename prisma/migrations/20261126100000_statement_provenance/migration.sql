-- A statement run is matched and stored first; its settlements and reversals are carried out afterwards,
-- in one transaction, possibly after a second person approved them (docs/reconciliation.md, "Planning and
-- applying"). `applied` now says they were carried out, and these two say when and by whom.
ALTER TABLE statement_runs
    ADD COLUMN applied_at TIMESTAMPTZ(3),
    ADD COLUMN applied_by VARCHAR(100);

-- Runs stored before this applied as they finished, by the operator who ran them.
UPDATE statement_runs SET applied_at = finished_at, applied_by = operator WHERE applied;

-- The settlements and reversals the run planned (payout, line, UTR, amount, the state it was planned from):
-- applying carries out only actions the run planned, whatever a caller hands back.
ALTER TABLE statement_runs ADD COLUMN planned_actions JSONB NOT NULL DEFAULT '[]'::jsonb;
