-- Events: each identity once, with its canonical JSON kept as text (lookups send these bytes
-- as they are; jsonb would reorder members), and the columns the lookups search on.
-- Times are nanoseconds since the Unix epoch as numeric: events carry up to nine fraction
-- digits and years 0001-9999, which neither timestamptz (microseconds) nor bigint (1677-2262) hold.
CREATE TABLE events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- sha256 of fingerprint, host, ip, port and source (canonical host and ip), joined by newlines
  identity   bytea NOT NULL CONSTRAINT events_identity_key UNIQUE,
  json       text NOT NULL,
  event_type text NOT NULL,
  -- leak.severity ('' for services and for leaks without one)
  severity   text NOT NULL,
  ip         inet,
  -- canonical host name with its labels reversed (com.example.www): a domain and all its
  -- subdomains are one contiguous range in byte order, hence the C collation
  host_rev   text COLLATE "C",
  first_seen numeric(21, 0) NOT NULL,
  last_seen  numeric(21, 0) NOT NULL
);

-- lz4 compresses and decompresses the JSON several times faster than the default pglz; a
-- server built without lz4 keeps the default.
DO $$
BEGIN
  ALTER TABLE events ALTER COLUMN json SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL;
END $$;

CREATE INDEX events_ip ON events (ip, id) WHERE ip IS NOT NULL;
CREATE INDEX events_host_rev ON events (host_rev, id) WHERE host_rev IS NOT NULL;
