-- Per-process caches (server/public/principal-cache.ts) of what every public API call reads to
-- know its caller: API tokens, user groups, a project's organization, project-user sessions and
-- a project user's groups. As in 0006, every change of a cached row, by any code path or cascade,
-- tells every server process at commit which entry to drop (larder_invalidate).
CREATE FUNCTION larder_api_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('apiToken', OLD.id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('apiToken', NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_tokens_invalidate AFTER INSERT OR UPDATE OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION larder_api_tokens_changed();
--> statement-breakpoint
CREATE FUNCTION larder_user_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('userGroup', OLD.id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('userGroup', NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_groups_invalidate AFTER INSERT OR UPDATE OF id, project_id, roles OR DELETE ON user_groups
  FOR EACH ROW EXECUTE FUNCTION larder_user_groups_changed();
--> statement-breakpoint
CREATE FUNCTION larder_project_organization_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('projectOrganization', OLD.id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('projectOrganization', NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_organization_invalidate AFTER INSERT OR UPDATE OF id, organization_id OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION larder_project_organization_changed();
--> statement-breakpoint
CREATE FUNCTION larder_project_user_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('endUserSession', OLD.id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('endUserSession', NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Not on last_used_at, which sign-ins and refreshes move: only what the check of a session reads.
CREATE TRIGGER project_user_sessions_invalidate AFTER INSERT OR UPDATE OF id, project_id, user_id, api_token_id, revoked_at OR DELETE ON project_user_sessions
  FOR EACH ROW EXECUTE FUNCTION larder_project_user_sessions_changed();
--> statement-breakpoint
CREATE FUNCTION larder_project_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('endUserGroups', OLD.id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('endUserGroups', NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER project_users_invalidate AFTER INSERT OR UPDATE OF id, project_id, user_groups OR DELETE ON project_users
  FOR EACH ROW EXECUTE FUNCTION larder_project_users_changed();
