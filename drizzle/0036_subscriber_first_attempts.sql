-- First attempts of integration and function runs are made by the relay's process under a lease
-- (next_attempt_at); the ones whose lease ran out unmade are queued as jobs by any process
-- (server/lib/subscribers.ts recoverFirstAttempts). These indexes find them without reading the
-- runs that are over.
CREATE INDEX IF NOT EXISTS "integration_runs_first_due" ON "integration_runs" USING btree ("next_attempt_at") WHERE "status" = 'pending' AND "attempts" = 0;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "function_runs_first_due" ON "function_runs" USING btree ("next_attempt_at") WHERE "status" = 'pending' AND "attempts" = 0;
