-- Indexes the platform admin area's tables and metrics read by (docs/admin.md): every sort of the
-- organizations table at 100,000 organizations, the users table's last sign-in sort, and the
-- metrics' per-day reads of deliveries, projects and monthly usage.
CREATE INDEX billing_accounts_plan_sort ON billing_accounts (plan_id NULLS FIRST, organization_id);
--> statement-breakpoint
CREATE INDEX billing_accounts_failed_sort ON billing_accounts (initial_billing_failed_date DESC NULLS FIRST, organization_id);
--> statement-breakpoint
CREATE INDEX billing_accounts_seats_sort ON billing_accounts (seats, organization_id);
--> statement-breakpoint
CREATE INDEX billing_accounts_next_billing_sort ON billing_accounts (next_billing_date, organization_id);
--> statement-breakpoint
CREATE INDEX billing_accounts_credit_sort ON billing_accounts (credit_usd, credit_nis, organization_id);
--> statement-breakpoint
CREATE INDEX users_last_logged_in_sort ON users (last_logged_in DESC NULLS LAST, id DESC);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
--> statement-breakpoint
CREATE INDEX projects_created ON projects (created_at);
--> statement-breakpoint
CREATE INDEX usage_counters_month_metric ON usage_counters (month, metric);
