-- Item tables made before this: add the indexes that sorting by Last Updated and by _order use
-- (new tables get them from server/content/storage.ts createLevelTable).
DO $$
DECLARE
  t text;
  scoped boolean;
BEGIN
  FOR t IN SELECT DISTINCT unnest(storage_tables) FROM content_collections LOOP
    IF to_regclass(format('%I', t)) IS NULL THEN
      CONTINUE;
    END IF;
    SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = t AND column_name = '_parent_id') INTO scoped;
    IF scoped THEN
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (_parent_id, _last_updated_date, _id)', t || '_updated', t);
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (_parent_id, _order, _id)', t || '_order', t);
    ELSE
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (_last_updated_date, _id)', t || '_updated', t);
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (_order, _id)', t || '_order', t);
    END IF;
  END LOOP;
END $$;
