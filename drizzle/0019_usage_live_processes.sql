-- SimultaneousLive across server processes (README "Usage metering"): each process keeps, per
-- organization, how many app live streams it has open now, with a heartbeat. A process that sees
-- its count change (and every heartbeat) records the sum over the processes heard from lately as
-- the month's peak candidate. Rows of a process go when it closes; a crashed one's are ignored
-- once its heartbeat is old and removed later. Deleted with the organization.
CREATE TABLE usage_live_processes (
  process_id text NOT NULL,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  open integer NOT NULL,
  heartbeat_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (process_id, organization_id)
);
--> statement-breakpoint
CREATE INDEX usage_live_processes_organization ON usage_live_processes (organization_id, heartbeat_at);
