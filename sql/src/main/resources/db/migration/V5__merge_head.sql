-- What create-deploy-stack needs to find the trunk's head just before a merge (issue 19): the
-- pull request's head commit and how many commits it had, so that a rebase merge is stepped back
-- over its own commits only. Rows stored before have 0 commits: their base_commit is taken as is.
ALTER TABLE deployments ADD COLUMN head_commit text;
ALTER TABLE deployments ADD COLUMN commits integer NOT NULL DEFAULT 0 CHECK (commits >= 0);
