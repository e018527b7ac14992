-- Exact totals kept for the searches that would otherwise count by passing over a whole item
-- table: a top-level list whose conditions hold a short search text the word index does not serve
-- (`ka`, in most rows). README "Listing and searching items".
--
-- A list's conditions are kept as one term (item_search_terms): `cond` is their SQL over one row,
-- with every value written in as a literal and no word-index test (so it does not depend on the
-- vocabulary). Three statement triggers per term, made by the server when the list is first
-- searched (server/content/query/kept-search.ts), add each item statement's change to the number
-- of rows meeting `cond` as a delta row (item_search_counts), in the writing transaction. Making a
-- trigger waits for the writers already in progress and holds off new ones until it commits, so
-- every write either ran before the trigger existed (and is in any later snapshot) or adds its
-- delta. `base` is then read in one snapshot as the rows meeting `cond` minus the deltas that
-- snapshot sees; the total is base plus every delta, exact at any later snapshot. Readers fold the
-- deltas into base when they pile up. A schema change drops a collection's terms (their triggers
-- with them); dropping a collection drops its table and, by the cascade, its terms.
CREATE TABLE item_search_terms (
  id text PRIMARY KEY,
  collection_id text NOT NULL REFERENCES content_collections (id) ON DELETE CASCADE,
  key text NOT NULL,
  cond text NOT NULL,
  base bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (collection_id, key)
);
--> statement-breakpoint
CREATE TABLE item_search_counts (
  term_id text NOT NULL REFERENCES item_search_terms (id) ON DELETE CASCADE,
  n bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX item_search_counts_term ON item_search_counts (term_id) INCLUDE (n);
--> statement-breakpoint
-- TG_ARGV: the term's id, its condition (SQL over one row of the item table).
CREATE FUNCTION content_count_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  term text := TG_ARGV[0];
  cond text := TG_ARGV[1];
  d bigint := 0;
  gone bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    EXECUTE format('SELECT count(*) FROM new_rows WHERE %s', cond) INTO d;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    EXECUTE format('SELECT count(*) FROM old_rows WHERE %s', cond) INTO gone;
  END IF;
  IF d <> gone THEN
    INSERT INTO item_search_counts (term_id, n) VALUES (term, d - gone);
  END IF;
  RETURN NULL;
END $$;
