-- The request that made a mail, so its delivery's log lines name it (docs/monitoring.md "Request ids").
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "request_id" text;
