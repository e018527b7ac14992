-- Item users per nested item (docs/end-users.md "Item users on nested items"): a link names the
-- top-level item (`item_id`) and, for a nested item, its nestedID chain from there
-- (`chapters.<id>`, `chapters.<id>.paragraphs.<id>`); '' is the top-level item itself.
ALTER TABLE item_users ADD COLUMN nested_path text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE item_users DROP CONSTRAINT item_users_pkey;
--> statement-breakpoint
ALTER TABLE item_users ADD CONSTRAINT item_users_pkey PRIMARY KEY (project_id, collection_slug, item_id, nested_path, user_id);
--> statement-breakpoint
-- "Associated items only" reads top-level links alone.
DROP INDEX item_users_user;
--> statement-breakpoint
CREATE INDEX item_users_user ON item_users (project_id, collection_slug, user_id, item_id) WHERE nested_path = '';
--> statement-breakpoint
-- A deleted item loses its users and those of every item nested in it (an upsert with the same
-- id later must not inherit them). A nested delete's event names the top-level item
-- (root_item_id), the list it was in (nested_path) and the item.
CREATE OR REPLACE FUNCTION item_users_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chain text;
BEGIN
  IF NEW.nested_path = '' THEN
    DELETE FROM item_users iu
    USING content_collections c
    WHERE c.id = NEW.collection_id AND iu.project_id = c.project_id AND iu.collection_slug = c.slug AND iu.item_id = NEW.item_id;
  ELSE
    chain := NEW.nested_path || '.' || NEW.item_id;
    DELETE FROM item_users iu
    USING content_collections c
    WHERE c.id = NEW.collection_id AND iu.project_id = c.project_id AND iu.collection_slug = c.slug AND iu.item_id = NEW.root_item_id
      AND (iu.nested_path = chain OR left(iu.nested_path, length(chain) + 1) = chain || '.');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER item_users_forget_deleted ON item_events;
--> statement-breakpoint
CREATE TRIGGER item_users_forget_deleted AFTER INSERT ON item_events
  FOR EACH ROW WHEN (NEW.trigger = 'delete') EXECUTE FUNCTION item_users_forget_deleted();
