-- Canonical bytes now write http.header names sorted byte-wise on their UTF-8 bytes, as the
-- original Go tools write every map (l9kit 0.2.0, docs/normalize.md). Events stored before keep
-- their tool's order: rewrite those header maps so stored bytes, lookups and hook payloads
-- are canonical again. Only the map's text moves; no value, identity or index changes.
--
-- The `json` type (not jsonb) keeps the text as written: `->` hands back the map's own text
-- and json_each its members in order, each value's text untouched. Names are compared as
-- UTF-8 bytes (convert_to … bytea), never by a collation. The map is put back where it was:
-- the first `"header":` followed by its text (members before `http` are strings and lists
-- of strings, in which a `"` is always escaped, so nothing earlier can match).
DO $$
DECLARE
  r record;
  old text;
  sorted text;
  at integer;
BEGIN
  FOR r IN SELECT id, json FROM events WHERE json LIKE '%"header":{"%' LOOP
    BEGIN
      old := (r.json::json -> 'http' -> 'header')::text;
      SELECT '{' || string_agg(to_json(key)::text || ':' || value::text, ',' ORDER BY convert_to(key, 'UTF8')) || '}'
        INTO sorted FROM json_each(old::json);
      IF sorted IS DISTINCT FROM old THEN
        at := strpos(r.json, '"header":' || old);
        IF at > 0 THEN
          UPDATE events SET json = overlay(r.json PLACING sorted FROM at + 9 FOR length(old)) WHERE id = r.id;
        END IF;
      END IF;
    EXCEPTION WHEN untranslatable_character OR invalid_text_representation OR invalid_parameter_value THEN
      -- A name PostgreSQL cannot decode (an escaped lone surrogate): that event keeps its order.
      RAISE WARNING 'l9kit: event % keeps its header order: %', r.id, SQLERRM;
    END;
  END LOOP;
END $$;
