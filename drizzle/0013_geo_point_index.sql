-- A GeoPoint field's GiST index over its location as a point (`<table>_<field>_g0`: longitude as
-- x, latitude as y), which serves `within` (a box, or a circle's bounding boxes; the exact test is
-- rechecked on the rows found). Item tables made before this; new tables and fields get it from
-- server/content/storage.ts addFieldStorage, with the same expression as server/content/query/compile.ts
-- writes. Fields are found by walking every collection's schema (GeoPoint: type 13; nested
-- collections: type 12, their own table). The file can run again harmlessly.
DO $$
DECLARE
  f record;
BEGIN
  FOR f IN
    WITH RECURSIVE levels(tbl, fields) AS (
      SELECT 'content_' || c.id, c.schema FROM content_collections c WHERE jsonb_typeof(c.schema) = 'array'
      UNION ALL
      SELECT 'content_' || (n ->> 'id'), n -> 'nestedCollectionSchema'
      FROM levels l, jsonb_array_elements(l.fields) n
      WHERE (n ->> 'type') = '12' AND jsonb_typeof(n -> 'nestedCollectionSchema') = 'array'
    )
    SELECT l.tbl, x ->> 'id' AS field_id
    FROM levels l, jsonb_array_elements(l.fields) x
    WHERE (x ->> 'type') = '13'
  LOOP
    IF to_regclass(format('%I', f.tbl)) IS NULL OR NOT EXISTS (
      SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = f.tbl AND column_name = 'f_' || f.field_id
    ) THEN
      CONTINUE;
    END IF;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gist (point(((%I ->> %L)::double precision), ((%I ->> %L)::double precision)))',
      f.tbl || '_' || f.field_id || '_g0', f.tbl, 'f_' || f.field_id, 'lng', 'f_' || f.field_id, 'lat');
  END LOOP;
END $$;
