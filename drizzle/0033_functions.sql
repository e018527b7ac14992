-- A project's functions (docs/functions.md "Functions and versions"): each saved source is a new
-- version with its compiled code; one version is deployed (what the HTTP trigger runs); every run
-- is logged; secrets are the project's, sealed with the secrets key.
CREATE TABLE "functions" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	"organization_id" text NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
	-- ^[a-z0-9][a-z0-9-]{0,62}$, unique per project: the last segment of its HTTP address.
	"name" text NOT NULL,
	-- js or ts.
	"language" text NOT NULL,
	-- Callable over HTTP without a token.
	"public" boolean DEFAULT false NOT NULL,
	-- The project API token whose rights ctx.data has (none: no data access).
	"api_token_id" text REFERENCES "api_tokens"("id") ON DELETE set null,
	"deployed_version_id" text,
	"created_by" text REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "functions_project_name" ON "functions" ("project_id", "name");
--> statement-breakpoint
CREATE TABLE "function_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL REFERENCES "functions"("id") ON DELETE cascade,
	-- 1, 2, 3… per function.
	"number" integer NOT NULL,
	"source" text NOT NULL,
	-- compileFunction's output (server/functions/compile.ts), with its inline source map.
	"code" text NOT NULL,
	"created_by" text REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "function_versions_number" ON "function_versions" ("function_id", "number");
--> statement-breakpoint
ALTER TABLE "functions" ADD CONSTRAINT "functions_deployed_version" FOREIGN KEY ("deployed_version_id") REFERENCES "function_versions"("id") ON DELETE set null;
--> statement-breakpoint
CREATE TABLE "function_invocations" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL REFERENCES "functions"("id") ON DELETE cascade,
	"version_id" text REFERENCES "function_versions"("id") ON DELETE set null,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	-- http or test.
	"trigger" text NOT NULL,
	-- ok or error.
	"status" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"memory_bytes" bigint NOT NULL,
	-- {name, message, stack} when it failed; the project's secrets replaced.
	"error" jsonb,
	-- [{level, text}], the project's secrets replaced.
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	-- The start of the result's JSON text, at most 2 KB.
	"result_preview" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "function_invocations_function" ON "function_invocations" ("function_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "function_invocations_created" ON "function_invocations" ("created_at");
--> statement-breakpoint
CREATE TABLE "project_function_secrets" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE cascade,
	-- ^[A-Za-z_][A-Za-z0-9_]{0,63}$: ctx.secrets.NAME.
	"name" text NOT NULL,
	-- Sealed with the secrets key (server/mail/secrets.ts).
	"value_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("project_id", "name")
);
