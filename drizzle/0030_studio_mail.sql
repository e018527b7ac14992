-- Studio's temporary tokens (docs/studio.md): minted by the console for one member, never listed
-- with the project's tokens, refused once expired.
ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
--> statement-breakpoint
ALTER TABLE api_tokens ADD COLUMN temporary_for text REFERENCES users(id) ON DELETE CASCADE;
--> statement-breakpoint
-- A member's Studio tokens are ended by member (their sessions ending, their membership changing).
CREATE INDEX api_tokens_temporary_for ON api_tokens (temporary_for) WHERE temporary_for IS NOT NULL;
--> statement-breakpoint
-- Mail of a project's app users (docs/mail.md): the project a mail in the outbox belongs to and
-- the template that made it (its delivery log), the project's templates and sender settings (an
-- SMTP password only encrypted), and the links that verify an app user's e-mail address.
ALTER TABLE outbox ADD COLUMN project_id text REFERENCES projects(id) ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE outbox ADD COLUMN template text;
--> statement-breakpoint
ALTER TABLE outbox ADD COLUMN reply_to text;
--> statement-breakpoint
-- 'project': delivered through the project's own SMTP server; null: the installation's transport.
ALTER TABLE outbox ADD COLUMN via text;
--> statement-breakpoint
-- Set while a worker holds the mail (its claim's lease): a resend does not queue it a second time.
ALTER TABLE outbox ADD COLUMN claimed_until timestamptz;
--> statement-breakpoint
CREATE INDEX outbox_project_created ON outbox (project_id, created_at DESC, id DESC) WHERE project_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE project_mail_templates (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind text NOT NULL,
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text,
  PRIMARY KEY (project_id, kind)
);
--> statement-breakpoint
CREATE TABLE project_mail_settings (
  project_id text PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  sender_name text,
  sender_address text,
  reply_to text,
  -- The project's SMTP URL without its password, and the password encrypted with the server key.
  smtp_url text,
  smtp_password_encrypted text,
  verify_on_signup boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE project_user_verifications (
  token_hash text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES project_users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
CREATE INDEX project_user_verifications_user ON project_user_verifications (user_id);
