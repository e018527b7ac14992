-- Layout settings of a collection's lists (content §2 "Layouts"): one object per nested path
-- ('' for the top level, else the nested collection slugs joined by '.'), holding layout,
-- startKey, endKey, durationKey, titleKeys, center and activeField. Shared by the team; written by
-- PUT collection/{c}/layout (server/content/layout-routes.ts).
ALTER TABLE "content_collections" ADD COLUMN IF NOT EXISTS "layouts" jsonb DEFAULT '{}'::jsonb NOT NULL;
