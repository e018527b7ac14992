-- A project's integrations (docs/integrations.md): instances of the catalogue's connectors
-- (definitions/integrations/), their runs, and the position of the relay that turns item events
-- into runs (as webhook_relay does for webhooks).
CREATE TABLE "integration_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"organization_id" text NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	"integration" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	-- Collection ids or nested slugs (`posts.comments`) it listens to; [] with 'many': every list.
	"collections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	-- Item events it reacts to (create, update, delete); schedules have `schedule` instead.
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"schedule" text,
	"next_run_at" timestamp with time zone,
	-- The settings that are not secrets, as sent.
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	-- The secret settings as one JSON object sealed with the secrets key (server/lib/secrets.ts).
	"secrets_encrypted" text,
	-- pg_current_snapshot() of the statement that enabled it: events committed before are not its own.
	"enabled_snapshot" text,
	"last_run_at" timestamp with time zone,
	"last_status" text,
	"last_error" text,
	"created_by" text REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "integration_instances_project" ON "integration_instances" ("project_id", "created_at");
--> statement-breakpoint
CREATE INDEX "integration_instances_due" ON "integration_instances" ("next_run_at") WHERE "enabled" AND "next_run_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "integration_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL REFERENCES "integration_instances"("id") ON DELETE cascade,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	-- create, update, delete (an item event), schedule, test, rebuild.
	"trigger" text NOT NULL,
	-- The item event it was made for (one run per instance and event), or null.
	"event_id" bigint,
	-- pending, succeeded, failed.
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	-- What the run is about and what it did (item id, object key, documents), without secrets.
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "integration_runs_event" ON "integration_runs" ("instance_id", "event_id") WHERE "event_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "integration_runs_instance" ON "integration_runs" ("instance_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "integration_runs_due" ON "integration_runs" ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE TABLE "event_relays" (
	"name" text PRIMARY KEY NOT NULL,
	"xid" xid8 NOT NULL,
	"event_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "event_relays" ("name", "xid", "event_id") SELECT 'integrations', pg_current_xact_id(), coalesce(max("id"), 0) FROM "item_events";
