-- Billing runs and invoices (docs/billing.md "Exactly once", "Invoices"): a charge keeps the plan
-- name and the tax rule's name it was priced with, so its invoice says what was charged even after
-- the plan or the tax rule changes; a mail may carry attachments (the invoice PDF), kept in the
-- outbox with the mail so a restart or an SMTP outage loses neither.
ALTER TABLE billing_charges
  ADD COLUMN plan_name text DEFAULT '' NOT NULL,
  ADD COLUMN tax_name text;
--> statement-breakpoint
ALTER TABLE outbox ADD COLUMN attachments jsonb;
