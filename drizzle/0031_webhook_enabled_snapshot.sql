-- A webhook is sent only the events written while it is on (docs/webhooks.md "On and off"): the
-- snapshot of the statement that created or re-enabled it (pg_current_snapshot() as text,
-- `xmin:xmax:xip,…`) tells which events had committed before that moment; the relay skips those,
-- however late it reaches them. Null (webhooks made before this migration): no such limit until
-- the webhook is next re-enabled.
ALTER TABLE "webhooks" ADD COLUMN "enabled_snapshot" text;
