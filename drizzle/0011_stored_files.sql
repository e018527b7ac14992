-- Every stored file, written before its bytes are (README "Files"): a file can only exist with its
-- row, so nothing is ever stored that the sweeper cannot find. A row names what owns the file
-- (an item's field, or the project for assets) but holds no foreign key: it must outlive its item,
-- collection or project, so that the sweeper sees the owner is gone and deletes the file (and then
-- the row). `state` is `pending` from the row's write until the item holding the file's address
-- has committed, then `attached`; assets are `asset`.
CREATE TABLE stored_files (
  key text PRIMARY KEY,
  project_id text NOT NULL,
  collection_id text,
  root_item_id text,
  item_table text,
  item_id text,
  field_column text,
  state text NOT NULL,
  content_type text NOT NULL,
  name text NOT NULL,
  size bigint NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT stored_files_state CHECK (state IN ('pending', 'attached', 'asset'))
);
--> statement-breakpoint
CREATE INDEX stored_files_item ON stored_files (collection_id, root_item_id);
--> statement-breakpoint
CREATE INDEX stored_files_project ON stored_files (project_id);
