-- Project users (the end users of apps built on a project, "Bagel Auth"), their sessions and
-- rotated refresh tokens, one-time codes, reset links, the project's user groups and the users
-- linked to items (README "End users and groups"). Secrets are kept only as hashes.
CREATE TABLE project_users (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email text,
  phone text,
  password_hash text,
  verified boolean DEFAULT false NOT NULL,
  user_groups text[] DEFAULT '{}' NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_logged_in timestamp with time zone,
  password_changed_at timestamp with time zone,
  CONSTRAINT project_users_identity CHECK (email IS NOT NULL OR phone IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX project_users_email ON project_users (project_id, email) WHERE email IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX project_users_phone ON project_users (project_id, phone) WHERE phone IS NOT NULL;
--> statement-breakpoint
CREATE INDEX project_users_created ON project_users (project_id, created_at, id);
--> statement-breakpoint
CREATE TABLE project_user_sessions (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES project_users (id) ON DELETE CASCADE,
  api_token_id text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_used_at timestamp with time zone DEFAULT now() NOT NULL,
  revoked_at timestamp with time zone,
  revoked_reason text
);
--> statement-breakpoint
CREATE INDEX project_user_sessions_user ON project_user_sessions (user_id);
--> statement-breakpoint
CREATE TABLE project_user_refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id text NOT NULL REFERENCES project_user_sessions (id) ON DELETE CASCADE,
  issued_at integer NOT NULL,
  jti text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  successor_hash text,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX project_user_refresh_tokens_session ON project_user_refresh_tokens (session_id);
--> statement-breakpoint
CREATE TABLE project_user_otps (
  nonce text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  channel text NOT NULL,
  target text NOT NULL,
  code_hash text NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  resends integer DEFAULT 0 NOT NULL,
  api_token_id text,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT project_user_otps_channel CHECK (channel IN ('email', 'phone'))
);
--> statement-breakpoint
CREATE INDEX project_user_otps_expires ON project_user_otps (expires_at);
--> statement-breakpoint
CREATE TABLE project_user_resets (
  token_hash text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES project_users (id) ON DELETE CASCADE,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX project_user_resets_user ON project_user_resets (user_id);
--> statement-breakpoint
CREATE TABLE user_groups (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  roles jsonb DEFAULT '[]'::jsonb NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX user_groups_project_name ON user_groups (project_id, lower(name));
--> statement-breakpoint
CREATE TABLE item_users (
  project_id text NOT NULL,
  collection_slug text NOT NULL,
  item_id text NOT NULL,
  user_id text NOT NULL REFERENCES project_users (id) ON DELETE CASCADE,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (project_id, collection_slug, item_id, user_id),
  FOREIGN KEY (project_id, collection_slug) REFERENCES content_collections (project_id, slug) ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX item_users_user ON item_users (project_id, collection_slug, user_id, item_id);
--> statement-breakpoint
-- A deleted top-level item loses its users (an upsert with the same id later must not inherit them).
CREATE FUNCTION item_users_forget_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM item_users iu
  USING content_collections c
  WHERE c.id = NEW.collection_id AND iu.project_id = c.project_id AND iu.collection_slug = c.slug AND iu.item_id = NEW.item_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER item_users_forget_deleted AFTER INSERT ON item_events
  FOR EACH ROW WHEN (NEW.trigger = 'delete' AND NEW.nested_path = '') EXECUTE FUNCTION item_users_forget_deleted();
