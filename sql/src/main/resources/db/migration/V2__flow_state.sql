-- Where each execution is inside its deploy flow, so an interrupted local run can resume it, and
-- every flow step as an event, so an operator (and a test) can see that nothing ran twice.
ALTER TABLE executions ADD COLUMN flow_state text;

CREATE TABLE flow_events (
    id           bigserial PRIMARY KEY,
    execution_id bigint      NOT NULL REFERENCES executions (id),
    state        text        NOT NULL,
    detail       text,
    at           timestamptz NOT NULL
);
CREATE INDEX flow_events_by_execution ON flow_events (execution_id, id);
