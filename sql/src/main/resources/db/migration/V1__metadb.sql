-- The metadb: deployments, their executions, the edges between them, votes and webhook
-- deliveries. Status columns hold the lower-case names of core's enums.

CREATE SEQUENCE deployment_queue;

CREATE TABLE deployments (
    id              bigserial PRIMARY KEY,
    repository      text        NOT NULL,
    pr_number       integer     NOT NULL,
    base_ref        text,
    head_ref        text,
    base_commit     text        NOT NULL,
    merge_commit    text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('queued', 'running', 'rolling_back', 'succeeded',
                                                           'rejected', 'failed', 'rollback_failed')),
    -- Merge order: the queue starts the lowest position first.
    queue_position  bigint      NOT NULL DEFAULT nextval('deployment_queue'),
    created_at      timestamptz NOT NULL,
    started_at      timestamptz,
    finished_at     timestamptz,
    -- The same merge stored twice is one deployment.
    CONSTRAINT deployments_one_per_merge UNIQUE (repository, merge_commit)
);

-- At most one deployment of a repository holds the merge lock. Starts take turns on an advisory lock
-- per repository (JdbiDeploymentStore); this index keeps the rule even for a writer that does not.
CREATE UNIQUE INDEX deployments_one_holding_lock ON deployments (repository)
    WHERE status IN ('running', 'rolling_back', 'rollback_failed');
CREATE INDEX deployments_queued ON deployments (repository, queue_position) WHERE status = 'queued';

CREATE TABLE executions (
    id                   bigserial PRIMARY KEY,
    deployment_id        bigint      NOT NULL REFERENCES deployments (id),
    -- The Step Functions execution name: deterministic, at most 80 characters.
    name                 text        NOT NULL UNIQUE CHECK (length(name) <= 80),
    unit                 text        NOT NULL,
    account              text        NOT NULL,
    layer                integer     NOT NULL,
    is_rollback          boolean     NOT NULL,
    status               text        NOT NULL CHECK (status IN ('waiting', 'running', 'succeeded', 'failed',
                                                                'rejected', 'aborted')),
    -- How many of its dependencies have not succeeded yet. Kept in the same transaction as every
    -- success, so that the release query reads one indexed column instead of joining every edge.
    pending_dependencies integer     NOT NULL CHECK (pending_dependencies >= 0),
    plan_commands        jsonb       NOT NULL,
    apply_commands       jsonb       NOT NULL,
    voters               text[]      NOT NULL,
    min_approvals        integer     NOT NULL CHECK (min_approvals >= 1),
    min_rejections       integer     NOT NULL CHECK (min_rejections >= 1),
    plan_role            text,
    apply_role           text,
    destroy_targets      text[]      NOT NULL,
    plan_artifact        text,
    plan_sha256          text,
    plan_summary         jsonb,
    new_providers        text[]      NOT NULL DEFAULT '{}',
    new_resources        text[]      NOT NULL DEFAULT '{}',
    decision             text CHECK (decision IN ('approved', 'rejected')),
    decided_at           timestamptz,
    created_at           timestamptz NOT NULL,
    started_at           timestamptz,
    finished_at          timestamptz,
    CONSTRAINT executions_one_per_unit_and_phase UNIQUE (deployment_id, unit, is_rollback)
);

-- The release query: ready candidates of one deployment, in unit order. Units sort bytewise
-- (COLLATE "C") everywhere, as Java sorts them, whatever the database's default collation.
CREATE INDEX executions_ready ON executions (deployment_id, unit COLLATE "C")
    WHERE status = 'waiting' AND pending_dependencies = 0;
-- Whether a deployment has work left, asked on every outcome: it reads one entry, however many
-- executions have finished.
CREATE INDEX executions_unfinished ON executions (deployment_id) WHERE status IN ('waiting', 'running');
-- The account check of the release query and the operator view.
CREATE INDEX executions_by_account ON executions (deployment_id, is_rollback, account, status);

CREATE TABLE execution_dependencies (
    execution_id bigint NOT NULL REFERENCES executions (id),
    depends_on   bigint NOT NULL REFERENCES executions (id),
    PRIMARY KEY (execution_id, depends_on),
    CHECK (execution_id <> depends_on)
);
-- A success decrements its dependents' counters through this index.
CREATE INDEX execution_dependencies_dependents ON execution_dependencies (depends_on);

-- Per deployment, every account an account waits for, transitively.
CREATE TABLE account_dependencies (
    deployment_id bigint NOT NULL REFERENCES deployments (id),
    account       text   NOT NULL,
    depends_on    text   NOT NULL,
    PRIMARY KEY (deployment_id, account, depends_on)
);
CREATE INDEX account_dependencies_reverse ON account_dependencies (deployment_id, depends_on);

-- The current vote of each voter.
CREATE TABLE votes (
    execution_id bigint      NOT NULL REFERENCES executions (id),
    voter        text        NOT NULL,
    choice       text        NOT NULL CHECK (choice IN ('approve', 'reject')),
    cast_at      timestamptz NOT NULL,
    PRIMARY KEY (execution_id, voter)
);

-- Every vote cast, in order: the audit trail.
CREATE TABLE vote_events (
    id           bigserial PRIMARY KEY,
    execution_id bigint      NOT NULL REFERENCES executions (id),
    voter        text        NOT NULL,
    choice       text        NOT NULL CHECK (choice IN ('approve', 'reject')),
    cast_at      timestamptz NOT NULL
);
CREATE INDEX vote_events_by_execution ON vote_events (execution_id, id);

-- GitHub deliveries already handled, so that a repeated X-GitHub-Delivery does nothing.
CREATE TABLE webhook_deliveries (
    delivery_id text        PRIMARY KEY,
    event       text        NOT NULL,
    received_at timestamptz NOT NULL
);
