-- The destroy of a unit that the merge deleted: it plans `plan -destroy` from a checkout of the
-- deployment's base commit, where the unit's config still is, and is never rolled back.
ALTER TABLE executions ADD COLUMN is_destroy boolean NOT NULL DEFAULT false;
