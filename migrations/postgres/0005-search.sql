-- Search (docs/search.md): the columns and indexes the selective queries use, filled for the
-- events already stored from their JSON, and the functions the compiled queries call
-- (src/query/sql.ts). Values in these columns are exactly what the memory store indexes
-- (src/service/store/prepare.ts fills them for new events).

-- An event's JSON as json, with NUL and unpaired surrogates (which PostgreSQL text cannot
-- hold, and which `->>` refuses) as U+FFFD: the query engine compares strings so too
-- (src/query/text.ts). Stored JSON is canonical: such characters are lower-case `\u` escapes,
-- and a surrogate pair is never escaped, so an escaped surrogate is an unpaired one. An
-- escape is one when an even number of backslashes comes before it.
CREATE FUNCTION l9kit_doc(doc text) RETURNS json LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN strpos(doc, '\u0000') = 0 AND strpos(doc, '\ud') = 0 THEN doc
    ELSE regexp_replace(doc, '(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})', '\1\\ufffd', 'g') END)::json
$$;

-- ASCII letters in lower case, nothing else (lower() follows the server's locale).
CREATE FUNCTION l9kit_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
$$;

-- A dns field's value as compared: ASCII lower case, one trailing dot dropped.
CREATE FUNCTION l9kit_name(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT l9kit_lower(CASE WHEN right(value, 1) = '.' THEN left(value, -1) ELSE value END)
$$;

-- A canonical time's digits, the fraction padded to nine (keys of equal length sort as the
-- instants do); NULL for any other text. The pattern is the schema's TIME_CANONICAL.
CREATE FUNCTION l9kit_time_key(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN value ~ '^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)-02-29)T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{0,8}[1-9])?Z$'
    THEN translate(substr(value, 1, 19), '-T:', '') || rpad(coalesce(substring(value from '\.([0-9]+)Z$'), ''), 9, '0') END
$$;

-- event_source, event_fingerprint and port (as written); the country's ISO code in upper case
-- and its name in lower case (ASCII letters), NULL when empty; network.asn.
ALTER TABLE events
  ADD COLUMN source text NOT NULL DEFAULT '',
  ADD COLUMN fingerprint text NOT NULL DEFAULT '',
  ADD COLUMN port text NOT NULL DEFAULT '',
  ADD COLUMN country_code text,
  ADD COLUMN country_name text,
  ADD COLUMN asn bigint NOT NULL DEFAULT 0;

UPDATE events SET (source, fingerprint, port, country_code, country_name, asn) = (
  SELECT d ->> 'event_source', d ->> 'event_fingerprint', d ->> 'port',
    NULLIF(translate(d -> 'geoip' ->> 'country_iso_code', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), ''),
    NULLIF(l9kit_lower(d -> 'geoip' ->> 'country_name'), ''),
    (d -> 'network' ->> 'asn')::bigint
  FROM (SELECT l9kit_doc(json) AS d) AS doc
);

-- Newest first (last seen, then id) is the order of every search: each index ends with the
-- two, so a selective query reads its first page in order and stops.
CREATE INDEX events_recent ON events (last_seen, id);
CREATE INDEX events_source ON events (source, last_seen, id);
CREATE INDEX events_severity ON events (severity, last_seen, id);
CREATE INDEX events_port ON events (port, last_seen, id);
CREATE INDEX events_fingerprint ON events (fingerprint);
CREATE INDEX events_country_code ON events (country_code, last_seen, id) WHERE country_code IS NOT NULL;
CREATE INDEX events_country_name ON events (country_name, last_seen, id) WHERE country_name IS NOT NULL;
-- CIDR ranges (`ip <<= range`): GiST's inet_ops finds the addresses in a range of either family.
CREATE INDEX events_ip_range ON events USING gist (ip inet_ops) WHERE ip IS NOT NULL;
