-- The merged pull request's title and author, from the webhook's payload: the vote mail names them.
-- Empty for a deployment given by hand, a drift reconcile, and those stored before.
ALTER TABLE deployments ADD COLUMN pr_title text NOT NULL DEFAULT '';
ALTER TABLE deployments ADD COLUMN pr_author text NOT NULL DEFAULT '';
