-- A drift reconcile (docs/drift.md): a deployment that a drift run queues to re-apply the drifted
-- units at the trunk head. Its kind is 'reconcile' and it is identified by its drift run, not by
-- its commit: the head it redeploys was usually deployed by its merge already. A merge has no
-- drift run, and stays one deployment per merge commit (NULLS NOT DISTINCT).
ALTER TABLE deployments ADD COLUMN drift_run text;
ALTER TABLE deployments ADD COLUMN kind text NOT NULL GENERATED ALWAYS AS
    (CASE WHEN drift_run IS NULL THEN 'merge' ELSE 'reconcile' END) STORED;
ALTER TABLE deployments DROP CONSTRAINT deployments_one_per_merge;
ALTER TABLE deployments ADD CONSTRAINT deployments_one_per_merge
    UNIQUE NULLS NOT DISTINCT (repository, merge_commit, drift_run);
