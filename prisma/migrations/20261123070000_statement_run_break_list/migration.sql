-- Each statement run keeps the breaks it left (kind, reference, what each side said), not only their count,
-- so the support console can list them for a person (docs/reconciliation.md).
ALTER TABLE statement_runs ADD COLUMN break_list jsonb NOT NULL DEFAULT '[]'::jsonb;
