-- Per-process caches (server/billing/enforcement.ts) of what every request of an organization
-- reads to know its billing status and plan: the account's plan and first failed charge. As in
-- 0006 and 0018, every change of those columns, by any code path, tells every server process at
-- commit which entry to drop (larder_invalidate), so a successful charge lifts a block at once.
CREATE FUNCTION larder_billing_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM larder_invalidate('billingAccount', OLD.organization_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM larder_invalidate('billingAccount', NEW.organization_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER billing_accounts_invalidate AFTER INSERT OR UPDATE OF organization_id, plan_id, initial_billing_failed_date OR DELETE ON billing_accounts
  FOR EACH ROW EXECUTE FUNCTION larder_billing_accounts_changed();
