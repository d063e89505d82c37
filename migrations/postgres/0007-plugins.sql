-- Plugins (/api/plugins): every event_source seen, and each plugin's new events counted by their
-- time in UTC minutes ('m', for the 1h window) and hours ('h', for 24h and 7d) as they are stored
-- (src/service/store/plugin-windows.ts). Updated in the ingest transaction, so every process's
-- ingests count once; a request sums at most 60 + 168 rows per plugin instead of reading events.
-- Buckets are whole minutes or hours since the Unix epoch; times are nanoseconds as in events.
CREATE TABLE plugins (
  name text COLLATE "C" PRIMARY KEY
);

CREATE TABLE plugin_counts (
  name   text COLLATE "C" NOT NULL,
  unit   "char" NOT NULL CHECK (unit IN ('m', 'h')),
  bucket bigint NOT NULL,
  n      bigint NOT NULL,
  PRIMARY KEY (name, unit, bucket)
);

-- Events stored before this migration: each once, by its first_seen (the time its first copy was
-- stored is not known), in the buckets that can still count now. The source is read from the
-- stored JSON (one pass over the table).
CREATE TEMP TABLE l9kit_plugin_backfill ON COMMIT DROP AS
  SELECT json::json ->> 'event_source' AS name, first_seen FROM events;
DELETE FROM l9kit_plugin_backfill WHERE name IS NULL OR name = '';

INSERT INTO plugins (name) SELECT DISTINCT name FROM l9kit_plugin_backfill;

INSERT INTO plugin_counts (name, unit, bucket, n)
  SELECT name, 'h', floor(first_seen / 3600000000000)::bigint AS bucket, count(*) FROM l9kit_plugin_backfill
  WHERE floor(first_seen / 3600000000000) > floor(extract(epoch FROM now()) * 1000000000 / 3600000000000) - 168
  GROUP BY name, bucket
  UNION ALL
  SELECT name, 'm', floor(first_seen / 60000000000)::bigint AS bucket, count(*) FROM l9kit_plugin_backfill
  WHERE floor(first_seen / 60000000000) > floor(extract(epoch FROM now()) * 1000000000 / 60000000000) - 60
  GROUP BY name, bucket;
