CREATE TABLE "item_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "item_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" text NOT NULL,
	"collection_id" text NOT NULL,
	"trigger" text NOT NULL,
	"item_id" text NOT NULL,
	"root_item_id" text,
	"nested_path" text DEFAULT '' NOT NULL,
	"item" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_requests" (
	"request_id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"cursor" bigint NOT NULL,
	"seen" bigint[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_events" ADD CONSTRAINT "item_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_events" ADD CONSTRAINT "item_events_collection_id_content_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."content_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_requests" ADD CONSTRAINT "live_requests_collection_id_content_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."content_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_events_collection" ON "item_events" USING btree ("collection_id","id");--> statement-breakpoint
CREATE INDEX "item_events_created" ON "item_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "live_requests_updated" ON "live_requests" USING btree ("updated_at");