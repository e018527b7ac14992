-- Every statement writing an item table notifies `larder_item_writes` with its collection's id at
-- commit, whatever wrote it (the API, an import, SQL by hand), so a process can keep what a list
-- held until a write to it is heard (server/lib/shared-cache.ts item versions; docs/content-storage.md
-- "Pages kept in memory"). PostgreSQL sends one notification per distinct payload per transaction.
-- New tables get the trigger from server/content/storage.ts createLevelTable.
CREATE OR REPLACE FUNCTION content_items_written() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('larder_item_writes', TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  r record;
  t text;
BEGIN
  FOR r IN SELECT id, storage_tables FROM content_collections LOOP
    FOREACH t IN ARRAY r.storage_tables LOOP
      IF to_regclass(format('%I', t)) IS NULL THEN
        CONTINUE;
      END IF;
      EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION content_items_written(%L)', t || '_written', t, r.id);
    END LOOP;
  END LOOP;
END $$;
