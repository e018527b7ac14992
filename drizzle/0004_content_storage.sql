-- Content storage (server/content/storage.ts): trigram indexes for text search, and the trigger
-- that drops a collection's item tables whenever its row goes, however it goes (a collection,
-- project or organization deletion, or a cascade), inside the same transaction.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION content_drop_storage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY OLD.storage_tables LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', t);
  END LOOP;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER content_collections_drop_storage AFTER DELETE ON content_collections
  FOR EACH ROW EXECUTE FUNCTION content_drop_storage();
