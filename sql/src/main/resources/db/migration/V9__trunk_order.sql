-- Trunk order (core's TrunkOrder): a deployment deploys the range from the last deployed commit to
-- its merge commit. `range_base` is where its stack was scanned from (null while not stored, and for
-- deployments stored before this migration); `covered_by` names the deployment whose range already
-- held a merge that was delivered late, which is then stored with nothing to deploy.
ALTER TABLE deployments ADD COLUMN range_base text;
ALTER TABLE deployments ADD COLUMN covered_by bigint REFERENCES deployments (id);
