-- Billing (docs/billing.md): the account of each organization gains its plan, address, currency,
-- frequency, credit, add-ons, billing dates and masked card; charges (one per organization and
-- period, the unit of "exactly once"), invoices, card-setup sessions, provider events seen (replay
-- refusal), contact requests, and the sandbox card provider's own records. Money is bigint minor units.
-- A null plan_id is the plan flagged `free` in definitions/billing/plans.ts (no plan id in SQL).
ALTER TABLE billing_accounts
  ADD COLUMN plan_id text,
  ADD COLUMN pending_plan_id text,
  ADD COLUMN billing_email text,
  ADD COLUMN address text DEFAULT '' NOT NULL,
  ADD COLUMN city text DEFAULT '' NOT NULL,
  ADD COLUMN country text DEFAULT 'US' NOT NULL,
  ADD COLUMN postcode text DEFAULT '' NOT NULL,
  ADD COLUMN currency smallint DEFAULT 2 NOT NULL,
  ADD COLUMN frequency smallint DEFAULT 1 NOT NULL,
  ADD COLUMN add_ons jsonb DEFAULT '[]'::jsonb NOT NULL,
  ADD COLUMN credit_usd bigint DEFAULT 0 NOT NULL,
  ADD COLUMN credit_nis bigint DEFAULT 0 NOT NULL,
  ADD COLUMN billing_day smallint,
  ADD COLUMN next_billing_date date,
  ADD COLUMN last_billing_date date,
  ADD COLUMN card_provider text,
  ADD COLUMN card_customer text,
  ADD COLUMN card_token text,
  ADD COLUMN card_last4 text,
  ADD COLUMN card_brand text,
  ADD COLUMN initial_billing_failed_date timestamp with time zone,
  ADD COLUMN overage_billed_through text,
  ADD COLUMN updated_at timestamp with time zone DEFAULT now() NOT NULL,
  ADD CONSTRAINT billing_accounts_currency CHECK (currency IN (1, 2)),
  ADD CONSTRAINT billing_accounts_frequency CHECK (frequency IN (1, 2)),
  ADD CONSTRAINT billing_accounts_credit CHECK (credit_usd >= 0 AND credit_nis >= 0),
  ADD CONSTRAINT billing_accounts_billing_day CHECK (billing_day BETWEEN 1 AND 28),
  ADD CONSTRAINT billing_accounts_card_last4 CHECK (card_last4 ~ '^[0-9]{4}$');
--> statement-breakpoint
CREATE INDEX billing_accounts_due ON billing_accounts (next_billing_date) WHERE next_billing_date IS NOT NULL;
--> statement-breakpoint
-- One charge per organization and period (kind 'period'), or per plan or seat change ('upgrade',
-- 'seats'). The row is written before the provider is asked, with the idempotency key the provider
-- gets: a retry after a crash or a timeout asks with the same key and cannot charge twice (a retry
-- after a decline is a new attempt with a new key). `effect` is what success changes on the account
-- (plan, seats, dates, credit), applied in the transaction that records the success. Kept when the
-- organization is deleted (accounting), so no foreign key.
CREATE TABLE billing_charges (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  kind text NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  currency smallint NOT NULL,
  line_items jsonb NOT NULL,
  effect jsonb DEFAULT '{}'::jsonb NOT NULL,
  subtotal bigint NOT NULL,
  credit_applied bigint DEFAULT 0 NOT NULL,
  tax bigint NOT NULL,
  total bigint NOT NULL,
  status text DEFAULT 'pending' NOT NULL,
  provider text,
  provider_charge_id text,
  attempts integer DEFAULT 0 NOT NULL,
  last_error text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  settled_at timestamp with time zone,
  CONSTRAINT billing_charges_kind CHECK (kind IN ('period', 'upgrade', 'seats')),
  CONSTRAINT billing_charges_status CHECK (status IN ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX billing_charges_one_per_period ON billing_charges (organization_id, period_start) WHERE kind = 'period';
--> statement-breakpoint
CREATE INDEX billing_charges_open ON billing_charges (status, updated_at) WHERE status <> 'succeeded';
--> statement-breakpoint
CREATE SEQUENCE billing_invoice_number;
--> statement-breakpoint
-- An invoice per successful charge: what the PDF shows, frozen at the charge (address, e-mail,
-- organization name). The PDF is rendered from this row.
CREATE TABLE billing_invoices (
  id text PRIMARY KEY,
  charge_id text NOT NULL UNIQUE REFERENCES billing_charges (id),
  organization_id text NOT NULL,
  invoice_number text NOT NULL UNIQUE,
  issued_at timestamp with time zone DEFAULT now() NOT NULL,
  plan_name text NOT NULL,
  organization_name text NOT NULL,
  billing_email text,
  billing_address jsonb NOT NULL,
  currency smallint NOT NULL,
  line_items jsonb NOT NULL,
  tax_name text,
  tax bigint NOT NULL,
  total bigint NOT NULL,
  card_last4 text,
  mailed_at timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX billing_invoices_organization ON billing_invoices (organization_id, issued_at DESC);
--> statement-breakpoint
-- A card-setup session: the link the console frames. Completing it once saves the card (and the
-- chosen plan); a second completion, or one for another organization, is refused.
CREATE TABLE billing_card_sessions (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  plan_id text,
  provider text NOT NULL,
  provider_session_id text,
  status text DEFAULT 'open' NOT NULL,
  created_by text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  completed_at timestamp with time zone,
  CONSTRAINT billing_card_sessions_status CHECK (status IN ('open', 'completed', 'declined', 'expired'))
);
--> statement-breakpoint
CREATE INDEX billing_card_sessions_organization ON billing_card_sessions (organization_id, created_at DESC);
--> statement-breakpoint
-- Provider callbacks (webhook events) already handled: a replay is answered without effect.
CREATE TABLE billing_provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (provider, event_id)
);
--> statement-breakpoint
CREATE TABLE contact_requests (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id text,
  name text NOT NULL,
  email text NOT NULL,
  number text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  mailed_at timestamp with time zone
);
--> statement-breakpoint
-- The sandbox card provider's own books (server/billing/providers/sandbox.ts): saved cards by token
-- (last four digits and the behaviour of the test number, never the number) and charges by idempotency key.
CREATE TABLE sandbox_cards (
  token text PRIMARY KEY,
  last4 text NOT NULL,
  brand text NOT NULL,
  behaviour text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE sandbox_charges (
  idempotency_key text PRIMARY KEY,
  id text NOT NULL UNIQUE,
  token text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
