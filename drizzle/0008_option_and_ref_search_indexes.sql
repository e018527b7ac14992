-- Item tables made before this (new tables get these from server/content/storage.ts addFieldStorage):
-- * an Option field's btree on its choice id also carries the value (INCLUDE), so filters and counts
--   on the option are index-only scans;
-- * an ItemRef field gets a trigram index on the JSON text of its links' display values, which the
--   case-insensitive search of display values uses.
-- Fields are found by walking every collection's schema (nested collections: type 12, their own table).
DO $$
DECLARE
  f record;
  def text;
  idx text;
  scope text;
BEGIN
  FOR f IN
    WITH RECURSIVE levels(tbl, nested, fields) AS (
      SELECT 'content_' || c.id, false, c.schema FROM content_collections c WHERE jsonb_typeof(c.schema) = 'array'
      UNION ALL
      SELECT 'content_' || (n ->> 'id'), true, n -> 'nestedCollectionSchema'
      FROM levels l, jsonb_array_elements(l.fields) n
      WHERE (n ->> 'type') = '12' AND jsonb_typeof(n -> 'nestedCollectionSchema') = 'array'
    )
    SELECT l.tbl, l.nested, x ->> 'id' AS field_id, (x ->> 'type') AS type_code
    FROM levels l, jsonb_array_elements(l.fields) x
    WHERE (x ->> 'type') IN ('6', '7')
  LOOP
    IF to_regclass(format('%I', f.tbl)) IS NULL OR NOT EXISTS (
      SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = f.tbl AND column_name = 'f_' || f.field_id
    ) THEN
      CONTINUE;
    END IF;
    scope := CASE WHEN f.nested THEN '_parent_id, ' ELSE '' END;
    IF f.type_code = '7' THEN
      idx := f.tbl || '_' || f.field_id || '_b0';
      SELECT indexdef INTO def FROM pg_indexes WHERE schemaname = current_schema() AND indexname = idx;
      IF def IS NULL OR def NOT LIKE '%INCLUDE%' THEN
        EXECUTE format('DROP INDEX IF EXISTS %I', idx);
        EXECUTE format('CREATE INDEX %I ON %I (%s(%I ->> ''_id''), _id) INCLUDE (%I)', idx, f.tbl, scope, 'f_' || f.field_id, 'f_' || f.field_id);
      END IF;
    ELSE
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin ((jsonb_path_query_array(%I, %L)::text) gin_trgm_ops)',
        f.tbl || '_' || f.field_id || '_t1', f.tbl, 'f_' || f.field_id, '$[*]."value"');
    END IF;
  END LOOP;
END $$;
