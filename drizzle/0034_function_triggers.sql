-- A function's event and schedule triggers (docs/functions.md "Event and schedule triggers"): the
-- item events it runs after, on which collections; a cron schedule; each event's or schedule's run
-- retried through the job queue until it succeeds or its attempts are spent, every attempt logged.
ALTER TABLE "functions" ADD COLUMN "events" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "functions" ADD COLUMN "collections" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- A cron expression (UTC); null: no schedule.
ALTER TABLE "functions" ADD COLUMN "schedule" text;
--> statement-breakpoint
ALTER TABLE "functions" ADD COLUMN "next_run_at" timestamp with time zone;
--> statement-breakpoint
-- pg_current_snapshot() of the statement that last changed its events or collections: events
-- committed before are not its own.
ALTER TABLE "functions" ADD COLUMN "triggers_snapshot" text;
--> statement-breakpoint
CREATE TABLE "function_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL REFERENCES "functions"("id") ON DELETE cascade,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	-- create, update or delete (an item event), or schedule.
	"trigger" text NOT NULL,
	-- The item_events row it answers (one run per function and event).
	"event_id" bigint,
	-- pending (an attempt is due or under way), succeeded, failed (no attempt left).
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	-- {event} or {scheduledFor}: the function's event.
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	-- Why the last attempt failed (its invocation has the details; a run refused before it ran has only this).
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "function_runs_event" ON "function_runs" ("function_id", "event_id") WHERE "event_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "function_runs_created" ON "function_runs" ("created_at");
--> statement-breakpoint
ALTER TABLE "function_invocations" ADD COLUMN "run_id" text REFERENCES "function_runs"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "function_invocations" ADD COLUMN "attempt" integer;
--> statement-breakpoint
INSERT INTO "event_relays" ("name", "xid", "event_id") SELECT 'functions', pg_current_xact_id(), coalesce(max("id"), 0) FROM "item_events";
