-- JSON fields (type 14) keep their value as written, keys in the author's order: their columns
-- become `json` (jsonb re-sorts keys). Every JSON field of every collection, nested ones included,
-- is found in the schemas; its column f_<field id> is changed wherever it is still jsonb. Values
-- stored before keep jsonb's order (it was lost when they were written); new writes keep theirs.
DO $$
DECLARE
  target record;
BEGIN
  FOR target IN
    SELECT c.table_name, c.column_name
    FROM information_schema.columns c
    WHERE c.table_schema = current_schema()
      AND c.data_type = 'jsonb'
      AND c.table_name LIKE 'content\_%'
      AND c.column_name IN (
        SELECT 'f_' || (f #>> '{}')
        FROM content_collections cc, jsonb_path_query(cc.schema, 'strict $.** ? (@.type == 14).id') AS f
      )
  LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE json USING %I::json', target.table_name, target.column_name, target.column_name);
  END LOOP;
END $$;
