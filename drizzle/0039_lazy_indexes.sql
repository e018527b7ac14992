-- The indexes of item tables made when a list first needed them (FIELD_INDEXES=lazy;
-- server/content/field-indexes.ts, docs/content-storage.md "Indexes made when needed"): one row
-- per index, claimed by the process building it ('building', then 'ready'), with when a list last
-- used it, so one unused for FIELD_INDEX_IDLE_DAYS is dropped. Indexes made with their field
-- (FIELD_INDEXES=eager, and every one made before this) have no row and are never dropped.
CREATE TABLE IF NOT EXISTS item_lazy_indexes (
  name text PRIMARY KEY,
  table_name text NOT NULL,
  state text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  ready_at timestamptz,
  used_at timestamptz NOT NULL DEFAULT now()
);
