-- Alert hooks: the watched resources, the hooks, and their delivery queue (a transactional
-- outbox: an ingest inserts the deliveries of its new events in its own transaction).
-- Times are milliseconds since the Unix epoch, as the HookStore interface has them.
CREATE TABLE resources (
  seq   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id    text NOT NULL CONSTRAINT resources_id_key UNIQUE,
  owner text NOT NULL,
  type  text NOT NULL,
  value text NOT NULL
);
CREATE INDEX resources_owner ON resources (owner, seq);

CREATE TABLE hooks (
  seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id           text NOT NULL CONSTRAINT hooks_id_key UNIQUE,
  owner        text NOT NULL,
  url          text NOT NULL,
  min_severity text NOT NULL,
  event_types  text[] NOT NULL,
  secret       text NOT NULL
);
CREATE INDEX hooks_owner ON hooks (owner, seq);

-- A hook's queue is its pending deliveries in seq order; only the first (the head) is claimable.
CREATE TABLE deliveries (
  seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id              text NOT NULL CONSTRAINT deliveries_id_key UNIQUE,
  hook_id         text NOT NULL REFERENCES hooks (id) ON DELETE CASCADE,
  fingerprint     text NOT NULL,
  -- the event's canonical JSON, sent as it is; dropped once delivered
  body            text,
  status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  last_status     integer,
  last_error      text,
  created_at      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  next_attempt_at bigint,
  -- while a dispatcher holds the delivery: when its lease ends; 0 when nobody holds it
  lease_until     bigint NOT NULL DEFAULT 0
);
CREATE INDEX deliveries_hook ON deliveries (hook_id, seq);
CREATE INDEX deliveries_pending ON deliveries (hook_id, seq) WHERE status = 'pending';
CREATE INDEX deliveries_delivered ON deliveries (hook_id, seq) WHERE status = 'delivered';
