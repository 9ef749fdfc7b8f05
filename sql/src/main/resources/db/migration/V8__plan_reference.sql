-- An execution's plan_artifact is a plan reference, the same in both runtimes: the key
-- 'plans/<deployment>/<execution>.tfplan' that the runtime's plan store resolves (a path below the
-- local state directory, or an object key in the artifact bucket). Before, the local runtime stored
-- the absolute path of its plan file. Those rows become references; a local deployment that was
-- planned but not applied across the upgrade finds no plan under its reference, and its apply
-- fails closed (nothing is applied; plan it again).
UPDATE executions e
   SET plan_artifact = 'plans/' || e.deployment_id || '/' || e.name || '.tfplan'
 WHERE e.plan_artifact IS NOT NULL
   AND e.plan_artifact NOT LIKE 'plans/%';
ALTER TABLE executions ADD CONSTRAINT executions_plan_artifact_is_a_reference
    CHECK (plan_artifact IS NULL OR plan_artifact LIKE 'plans/%');
COMMENT ON COLUMN executions.plan_artifact IS
    'plans/<deployment>/<execution>.tfplan: the plan reference the runtime''s plan store resolves';
