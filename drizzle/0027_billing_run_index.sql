-- Billing runs (docs/billing.md "Billing runs"): a run claims due accounts in batches in the order
-- (next_billing_date, organization_id); this index hands them over in that order, so each batch
-- reads only the accounts it claims (and those it passes over) instead of sorting every due one.
CREATE INDEX billing_accounts_due_order ON billing_accounts (next_billing_date, organization_id) WHERE next_billing_date IS NOT NULL;
--> statement-breakpoint
DROP INDEX billing_accounts_due;
--> statement-breakpoint
-- The sandbox provider's "fails later" card looks up the earlier charges of its token.
CREATE INDEX sandbox_charges_token ON sandbox_charges (token);
