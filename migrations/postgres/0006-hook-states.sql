-- Hooks that can be disabled (a 410 Gone answer, or a delivery that failed for its whole retry
-- schedule) and enabled again, and a version number of the hook registry: every change of
-- `resources` or `hooks` moves it (statement triggers), so an ingest transaction reads one row
-- to know whether the matching index its process keeps is still the registry's.
ALTER TABLE hooks
  ADD COLUMN state text NOT NULL DEFAULT 'active' CONSTRAINT hooks_state_check CHECK (state IN ('active', 'disabled')),
  ADD COLUMN disabled_at bigint,
  ADD COLUMN disabled_reason text;

CREATE TABLE hook_registry (
  only_row boolean PRIMARY KEY DEFAULT true CONSTRAINT hook_registry_one_row CHECK (only_row),
  version  bigint NOT NULL
);
INSERT INTO hook_registry (version) VALUES (0);

-- Created in this schema and bound to it, so the triggers of each schema move their own row.
CREATE FUNCTION hook_registry_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE hook_registry SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER resources_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON resources
  FOR EACH STATEMENT EXECUTE FUNCTION hook_registry_changed();
CREATE TRIGGER hooks_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hooks
  FOR EACH STATEMENT EXECUTE FUNCTION hook_registry_changed();
