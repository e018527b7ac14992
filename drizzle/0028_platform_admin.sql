-- The platform admin area (docs/admin.md): disabled users, the audit log of admin actions, soft
-- launch, daily platform figures for the metrics, and the indexes its searches and sorts use.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
--> statement-breakpoint
-- A user's cached row (server/main/access.ts) is dropped in every process when disabled or enabled.
DROP TRIGGER users_invalidate ON users;
--> statement-breakpoint
CREATE TRIGGER users_invalidate AFTER UPDATE OF super_admin, username, email, disabled_at OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION larder_users_changed();
--> statement-breakpoint
CREATE INDEX users_username_trgm ON users USING gin (lower(username) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_email_trgm ON users USING gin (lower(email) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_created ON users (created_at, id);
--> statement-breakpoint
CREATE INDEX organizations_name_trgm ON organizations USING gin (lower(name) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX organizations_name_sort ON organizations (lower(name), id);
--> statement-breakpoint
CREATE INDEX organizations_created ON organizations (created_at, id);
--> statement-breakpoint
-- Every admin action: who, what, when, before and after. Kept when the actor or target is deleted.
CREATE TABLE admin_audit (
  id text PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id text,
  actor text NOT NULL,
  action text NOT NULL,
  target_kind text NOT NULL,
  target_id text,
  before jsonb,
  after jsonb
);
--> statement-breakpoint
CREATE INDEX admin_audit_at ON admin_audit (at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX admin_audit_target ON admin_audit (target_kind, target_id, at DESC);
--> statement-breakpoint
-- While soft launch is on (settings key 'softLaunch'), billing applies only to these organizations.
CREATE TABLE soft_launch_whitelist (
  organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Soft launch changes whether an organization's billing is enforced: its cached billing account
-- (server/billing/enforcement.ts) is dropped in every process, all of them when the switch moves.
CREATE FUNCTION larder_soft_launch_whitelist_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('billingAccount', OLD.organization_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('billingAccount', NEW.organization_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER soft_launch_whitelist_invalidate AFTER INSERT OR UPDATE OR DELETE ON soft_launch_whitelist
  FOR EACH ROW EXECUTE FUNCTION larder_soft_launch_whitelist_changed();
--> statement-breakpoint
CREATE FUNCTION larder_soft_launch_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP <> 'INSERT' AND OLD.key = 'softLaunch') OR (TG_OP <> 'DELETE' AND NEW.key = 'softLaunch') THEN
    PERFORM larder_invalidate('billingAccount', '*');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER settings_soft_launch_invalidate AFTER INSERT OR UPDATE OR DELETE ON settings
  FOR EACH ROW EXECUTE FUNCTION larder_soft_launch_changed();
--> statement-breakpoint
-- One figure per metric per day (UTC), written by a daily job: the metrics' charts.
CREATE TABLE platform_daily (
  day date NOT NULL,
  metric text NOT NULL,
  value bigint NOT NULL,
  PRIMARY KEY (day, metric)
);
