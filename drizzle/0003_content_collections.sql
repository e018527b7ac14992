CREATE TABLE "content_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"single_item" boolean DEFAULT false NOT NULL,
	"rtl_direction" boolean DEFAULT false NOT NULL,
	"schema" jsonb NOT NULL,
	"storage_tables" text[] NOT NULL,
	"item_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_collections" ADD CONSTRAINT "content_collections_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_collections_project_slug" ON "content_collections" USING btree ("project_id","slug");