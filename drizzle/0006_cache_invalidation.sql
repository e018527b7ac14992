-- Per-process caches (server/lib/shared-cache.ts) of sessions, users, memberships, projects and
-- collections: every change of a cached row, by any code path or cascade, tells every server
-- process at commit which entry to drop.
CREATE FUNCTION larder_invalidate(cache text, cache_key text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('larder_invalidate', json_build_object('c', cache, 'k', cache_key)::text);
$$;
--> statement-breakpoint
CREATE FUNCTION larder_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('session', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_invalidate AFTER UPDATE OF revoked_at, user_id OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION larder_sessions_changed();
--> statement-breakpoint
CREATE FUNCTION larder_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('user', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_invalidate AFTER UPDATE OF super_admin, username, email OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION larder_users_changed();
--> statement-breakpoint
CREATE FUNCTION larder_memberships_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('membership', OLD.organization_id || ':' || OLD.user_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('membership', NEW.organization_id || ':' || NEW.user_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_invalidate AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION larder_memberships_changed();
--> statement-breakpoint
-- A deleted organization: its memberships go by cascade (their trigger runs), and the cached
-- "organization exists, caller not a member" answers go with this.
CREATE FUNCTION larder_organizations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('membership', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_invalidate AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION larder_organizations_changed();
--> statement-breakpoint
CREATE FUNCTION larder_projects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('project', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_invalidate AFTER UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION larder_projects_changed();
--> statement-breakpoint
CREATE FUNCTION larder_collections_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('collection', OLD.project_id || ':' || OLD.slug);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Not on the item counter, which every insert and delete changes: it is read fresh, never cached.
CREATE TRIGGER content_collections_invalidate AFTER UPDATE OF project_id, slug, name, single_item, rtl_direction, schema, storage_tables OR DELETE ON content_collections
  FOR EACH ROW EXECUTE FUNCTION larder_collections_changed();
