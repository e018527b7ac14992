-- First attempts are sent by the relay's process under a lease (next_attempt_at); the ones whose
-- lease ran out unlogged are queued as jobs (server/webhooks/delivery.ts recoverFirstAttempts).
-- This index finds them without reading the log of delivered ones.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_first_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "state" = 'pending' AND "attempts" = 0;
