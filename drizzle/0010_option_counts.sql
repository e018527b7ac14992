-- Exact counts per choice of every top-level Option field, so a list filtered by one choice
-- (`status = published`) reads its total from a few rows instead of counting index entries
-- (README "Listing and searching items"). Kept as deltas: each item statement adds one row per
-- choice whose count it changed (statement triggers over the transition tables, in the writing
-- transaction), so concurrent writers never update a shared row and never wait on each other; the
-- total is the sum of a key's rows. When a field has gathered 1,024 rows, the writer that sees it
-- folds them into one row per choice, unless another writer is already folding (an advisory lock
-- taken with try: nobody waits). Rows of uncommitted writers are not visible to the fold and stay.
-- New tables get the triggers from server/content/storage.ts addFieldStorage.
CREATE TABLE item_option_counts (
  collection_id text NOT NULL REFERENCES content_collections (id) ON DELETE CASCADE,
  field_column text NOT NULL,
  option_id text NOT NULL,
  n bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX item_option_counts_key ON item_option_counts (collection_id, field_column, option_id) INCLUDE (n);
--> statement-breakpoint
-- TG_ARGV: the collection id, the column, the member of the JSON value counted (Option: _id).
CREATE FUNCTION content_count_options() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  collection text := TG_ARGV[0];
  col text := TG_ARGV[1];
  member text := TG_ARGV[2];
  source text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    source := format('SELECT %I ->> %L AS k, 1 AS d FROM new_rows', col, member);
  ELSIF TG_OP = 'DELETE' THEN
    source := format('SELECT %I ->> %L AS k, -1 AS d FROM old_rows', col, member);
  ELSE
    source := format('SELECT %I ->> %L AS k, 1 AS d FROM new_rows UNION ALL SELECT %I ->> %L, -1 FROM old_rows', col, member, col, member);
  END IF;
  EXECUTE format('INSERT INTO item_option_counts (collection_id, field_column, option_id, n) SELECT %L, %L, k, sum(d) FROM (%s) s WHERE k IS NOT NULL GROUP BY k HAVING sum(d) <> 0', collection, col, source);
  IF (SELECT count(*) FROM (SELECT 1 FROM item_option_counts c WHERE c.collection_id = collection AND c.field_column = col LIMIT 1024) x) >= 1024
     AND pg_try_advisory_xact_lock(hashtext('item_option_counts'), hashtext(collection || '.' || col)) THEN
    WITH gone AS (
      DELETE FROM item_option_counts c WHERE c.collection_id = collection AND c.field_column = col RETURNING c.option_id, c.n
    )
    INSERT INTO item_option_counts (collection_id, field_column, option_id, n)
    SELECT collection, col, g.option_id, sum(g.n) FROM gone g GROUP BY g.option_id HAVING sum(g.n) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Item tables made before this: the triggers, and the counts as they are (the table locked against
-- writes meanwhile, so no write falls between the two). Top-level Option fields (type 7) only.
DO $$
DECLARE
  f record;
  col text;
BEGIN
  FOR f IN
    SELECT c.id AS collection_id, 'content_' || c.id AS tbl, x ->> 'id' AS field_id
    FROM content_collections c, jsonb_array_elements(c.schema) x
    WHERE jsonb_typeof(c.schema) = 'array' AND (x ->> 'type') = '7'
  LOOP
    col := 'f_' || f.field_id;
    IF to_regclass(format('%I', f.tbl)) IS NULL OR NOT EXISTS (
      SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = f.tbl AND column_name = col
    ) THEN
      CONTINUE;
    END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE ROW EXCLUSIVE MODE', f.tbl);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', f.tbl || '_' || f.field_id || '_ci', f.tbl);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', f.tbl || '_' || f.field_id || '_cu', f.tbl);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', f.tbl || '_' || f.field_id || '_cd', f.tbl);
    DELETE FROM item_option_counts WHERE collection_id = f.collection_id AND field_column = col;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_count_options(%L, %L, %L)',
      f.tbl || '_' || f.field_id || '_ci', f.tbl, f.collection_id, col, '_id');
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_count_options(%L, %L, %L)',
      f.tbl || '_' || f.field_id || '_cu', f.tbl, f.collection_id, col, '_id');
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION content_count_options(%L, %L, %L)',
      f.tbl || '_' || f.field_id || '_cd', f.tbl, f.collection_id, col, '_id');
    EXECUTE format('INSERT INTO item_option_counts (collection_id, field_column, option_id, n) SELECT %L, %L, %I ->> ''_id'', count(*) FROM %I WHERE %I ->> ''_id'' IS NOT NULL GROUP BY 3',
      f.collection_id, col, col, f.tbl, col);
  END LOOP;
END $$;
