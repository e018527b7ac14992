-- Usage of an organization per UTC month (README "Usage metering"): one row per metric. Counters
-- (ApiCalls, BandWidth, WebhookTriggers, BagelAuthUsers, SMSOTPCount) are added to by every
-- server process's batched upserts; SimultaneousLive and the recorded levels (Users, ItemCount,
-- TotalStore) keep the greatest value written. Deleted with the organization.
CREATE TABLE usage_counters (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  month text NOT NULL,
  metric text NOT NULL,
  value bigint NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (organization_id, month, metric),
  CONSTRAINT usage_counters_month CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
