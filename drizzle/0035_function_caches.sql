-- Functions' rows and the project's function secrets, cached per process for the HTTP trigger
-- (docs/functions.md "The HTTP trigger"): every change tells every server process at commit which
-- entry to drop (larder_invalidate, migration 0006). Versions never change, so they need nothing.
CREATE FUNCTION larder_functions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM larder_invalidate('function', OLD.project_id || ':' || OLD.name);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER functions_invalidate AFTER UPDATE OR DELETE ON functions
  FOR EACH ROW EXECUTE FUNCTION larder_functions_changed();
--> statement-breakpoint
CREATE FUNCTION larder_function_secrets_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('function-secrets', OLD.project_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('function-secrets', NEW.project_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER function_secrets_invalidate AFTER INSERT OR UPDATE OR DELETE ON project_function_secrets
  FOR EACH ROW EXECUTE FUNCTION larder_function_secrets_changed();
