-- An exact word index for the search (README "Listing and searching items"). A term without
-- whitespace is a substring of a value exactly when it is a substring of one of the value's
-- whitespace-separated tokens (of the lowercased value). So, per searched field:
-- * content_words(value): the value's tokens (lowercased, split at ASCII whitespace; a token longer
--   than 512 characters as overlapping 512-character chunks every 256, so every text of up to 256
--   characters inside it lies in one chunk and no GIN entry exceeds its size limit);
-- * a GIN index over each row's content_words (`<table>_<field>_w`, made in storage.ts), which
--   answers `content_words(col) && array[tokens]` exactly, with no recheck on the table;
-- * item_search_words: the field's vocabulary, every token ever stored (never shrinking: a token no
--   row holds any more finds no row), kept by statement triggers on insert and update of the item
--   table and trigram-indexed, so the tokens holding a term are found without reading the items.
-- ItemRef fields do the same over their links' display values (content_ref_words).
-- Computing a row's words costs tens of microseconds: the functions say so (COST), so the planner
-- reads the word index rather than computing them for every row of a table.
-- New tables and fields get these from server/content/storage.ts addFieldStorage. The file can run
-- again harmlessly (tests/server/query-search-words.test.ts runs it over tables made without it).
CREATE OR REPLACE FUNCTION content_words(value text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1000 AS $$
DECLARE
  words text[] := regexp_split_to_array(lower(value), '[ \t\n\r\f\v]+');
BEGIN
  IF length(value) <= 512 THEN
    RETURN words;
  END IF;
  RETURN ARRAY(SELECT substr(t, s, 512) FROM unnest(words) t, generate_series(1, greatest(length(t) - 256, 1), 256) s);
END $$;
--> statement-breakpoint
-- The display values joined by a line break (a word break): their words, each value's own. It
-- calls nothing of ours (an index expression's functions run with only pg_catalog on the path).
CREATE OR REPLACE FUNCTION content_ref_words(refs jsonb) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1000 AS $$
DECLARE
  value text := (SELECT string_agg(v, E'\n') FROM jsonb_array_elements_text(jsonb_path_query_array(refs, '$[*]."value"')) v);
  words text[] := regexp_split_to_array(lower(value), '[ \t\n\r\f\v]+');
BEGIN
  IF length(value) <= 512 THEN
    RETURN words;
  END IF;
  RETURN ARRAY(SELECT substr(t, s, 512) FROM unnest(words) t, generate_series(1, greatest(length(t) - 256, 1), 256) s);
END $$;
--> statement-breakpoint
-- field_column is `f_<field id>`: field ids are unique across every collection and level.
CREATE TABLE IF NOT EXISTS item_search_words (
  field_column text NOT NULL,
  word text NOT NULL,
  PRIMARY KEY (field_column, word)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS item_search_words_trgm ON item_search_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
-- TG_ARGV: the column, the words function (content_words or content_ref_words). Sorted, so two
-- writers adding the same new words take them in the same order (no deadlock).
CREATE OR REPLACE FUNCTION content_keep_words() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  col text := TG_ARGV[0];
  fn text := TG_ARGV[1];
  source text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    source := format('SELECT %I(%I) AS ws FROM new_rows WHERE %I IS NOT NULL', fn, col, col);
  ELSE
    source := format('SELECT %I(n.%I) AS ws FROM new_rows n WHERE n.%I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o._id = n._id AND o.%I = n.%I)', fn, col, col, col, col);
  END IF;
  EXECUTE format('INSERT INTO item_search_words (field_column, word)
    SELECT %L, w FROM (SELECT DISTINCT w FROM (%s) s, unnest(s.ws) w WHERE w <> '''') d
    WHERE NOT EXISTS (SELECT 1 FROM item_search_words x WHERE x.field_column = %L AND x.word = d.w)
    ORDER BY w ON CONFLICT DO NOTHING', col, source, col);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A collection's row going drops its tables (0004); its fields' vocabularies go with it.
CREATE OR REPLACE FUNCTION content_drop_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_typeof(OLD.schema) = 'array' THEN
    DELETE FROM item_search_words WHERE field_column IN (SELECT 'f_' || (x #>> '{}') FROM jsonb_path_query(OLD.schema, 'lax $.**.id') x WHERE jsonb_typeof(x) = 'string');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS content_collections_drop_search_words ON content_collections;
--> statement-breakpoint
CREATE TRIGGER content_collections_drop_search_words AFTER DELETE ON content_collections
  FOR EACH ROW EXECUTE FUNCTION content_drop_search_words();
--> statement-breakpoint
-- Item tables made before this: the word index, the triggers and the vocabulary as it is (the table
-- locked against writes meanwhile, so no write falls between the two). Searched fields: PlainText
-- (1), RichText (2), Phone (4), Link (9) and ItemRef (6), top-level and nested (type 12).
DO $$
DECLARE
  f record;
  col text;
  fn text;
  base text;
BEGIN
  FOR f IN
    WITH RECURSIVE levels(tbl, fields) AS (
      SELECT 'content_' || c.id, c.schema FROM content_collections c WHERE jsonb_typeof(c.schema) = 'array'
      UNION ALL
      SELECT 'content_' || (n ->> 'id'), n -> 'nestedCollectionSchema'
      FROM levels l, jsonb_array_elements(l.fields) n
      WHERE (n ->> 'type') = '12' AND jsonb_typeof(n -> 'nestedCollectionSchema') = 'array'
    )
    SELECT l.tbl, x ->> 'id' AS field_id, (x ->> 'type') AS type_code
    FROM levels l, jsonb_array_elements(l.fields) x
    WHERE (x ->> 'type') IN ('1', '2', '4', '9', '6')
  LOOP
    col := 'f_' || f.field_id;
    IF to_regclass(format('%I', f.tbl)) IS NULL OR NOT EXISTS (
      SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = f.tbl AND column_name = col
    ) THEN
      CONTINUE;
    END IF;
    fn := CASE WHEN f.type_code = '6' THEN 'content_ref_words' ELSE 'content_words' END;
    base := f.tbl || '_' || f.field_id;
    EXECUTE format('LOCK TABLE %I IN SHARE ROW EXCLUSIVE MODE', f.tbl);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', base || '_wi', f.tbl);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', base || '_wu', f.tbl);
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (%I(%I))', base || '_w', f.tbl, fn, col);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_keep_words(%L, %L)',
      base || '_wi', f.tbl, col, fn);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_keep_words(%L, %L)',
      base || '_wu', f.tbl, col, fn);
    DELETE FROM item_search_words WHERE field_column = col;
    EXECUTE format('INSERT INTO item_search_words (field_column, word) SELECT DISTINCT %L, w FROM %I, unnest(%I(%I)) w WHERE w <> '''' ON CONFLICT DO NOTHING',
      col, f.tbl, fn, col);
  END LOOP;
END $$;
