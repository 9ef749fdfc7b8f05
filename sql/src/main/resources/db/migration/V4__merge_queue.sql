-- The pre-merge path. A merge is queued when GitHub reports it, before its change set is scanned,
-- so the queue keeps merge order; create-deploy-stack stores the executions into that deployment
-- later. Deployments stored before this migration were stored with their executions.
ALTER TABLE deployments ADD COLUMN stack_stored boolean NOT NULL DEFAULT true;

-- The local merge lock (`livegate serve`), with the SSM parameter's semantics: one row per
-- repository, created if absent, deleted by its holder only.
CREATE TABLE merge_locks (
    repository   text        PRIMARY KEY,
    pr_number    integer     NOT NULL,
    merge_commit text        NOT NULL,
    taken_at     timestamptz NOT NULL
);

-- Open pull requests at their latest head, so that a released lock can re-post the merge-lock
-- status of every pull request it blocked. `units` is null until a plan of the head has named the
-- units it changes.
CREATE TABLE pull_requests (
    repository text        NOT NULL,
    number     integer     NOT NULL,
    base_ref   text        NOT NULL,
    base_sha   text        NOT NULL,
    head_sha   text        NOT NULL,
    from_fork  boolean     NOT NULL,
    units      text[],
    is_open    boolean     NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (repository, number)
);
CREATE INDEX pull_requests_open ON pull_requests (repository) WHERE is_open;

-- The last state livegate posted for each commit status, so that a closed pull request's pending
-- statuses can be cleared and a status is not posted again unchanged.
CREATE TABLE commit_statuses (
    repository  text        NOT NULL,
    sha         text        NOT NULL,
    context     text        NOT NULL,
    state       text        NOT NULL CHECK (state IN ('pending', 'success', 'failure', 'error')),
    description text        NOT NULL,
    target_url  text        NOT NULL,
    posted_at   timestamptz NOT NULL,
    PRIMARY KEY (repository, sha, context)
);
