-- People make their own secrets (docs/operations.md, "People and roles"): a person added or reset enrolls
-- themselves — their own password and a TOTP second factor — through an enrollment only they hold, which an
-- approval binds to their account. Nobody is ever handed another person's password.

-- A password made for someone else is no longer a thing: an account awaiting its own password has none.
ALTER TABLE "console_users" ALTER COLUMN "password_hash" DROP NOT NULL;
UPDATE "console_users" SET "password_hash" = NULL WHERE "must_change_password";
ALTER TABLE "console_users" DROP COLUMN "must_change_password";

ALTER TABLE "console_users"
  ADD COLUMN "enrollment_digest" CHAR(64),
  ADD COLUMN "totp_sealed" VARCHAR(200),
  ADD COLUMN "totp_pending_sealed" VARCHAR(200),
  ADD COLUMN "totp_last_step" BIGINT,
  ADD COLUMN "second_factor_failures" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "second_factor_failed_at" TIMESTAMPTZ(3);
CREATE UNIQUE INDEX "console_users_enrollment_digest_key" ON "console_users"("enrollment_digest");
ALTER TABLE "console_users" ADD CONSTRAINT "console_users_enrollment_digest_hex"
  CHECK ("enrollment_digest" ~ '^[0-9a-f]{64}$');

CREATE TABLE "console_enrollments" (
    "id" SERIAL NOT NULL,
    "username" VARCHAR(64) NOT NULL,
    "digest" CHAR(64) NOT NULL,
    "fingerprint" CHAR(9) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "console_enrollments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_enrollments_digest_hex" CHECK ("digest" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "console_enrollments_fingerprint_format" CHECK ("fingerprint" ~ '^[0-9A-Z]{4}-[0-9A-Z]{4}$')
);
CREATE UNIQUE INDEX "console_enrollments_digest_key" ON "console_enrollments"("digest");
CREATE INDEX "console_enrollments_username_idx" ON "console_enrollments"("username");

CREATE TABLE "console_recovery_codes" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "digest" CHAR(64) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "console_recovery_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "console_recovery_codes_user_id_digest_key" ON "console_recovery_codes"("user_id", "digest");
ALTER TABLE "console_recovery_codes" ADD CONSTRAINT "console_recovery_codes_user_id_fkey"
  FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One row at most: present once `pnpm cli setup` has made the installation's first approver; completed once
-- a second approver has enrolled (until then: setup, people enrolled by an approver alone, no money approved).
CREATE TABLE "console_setup" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "first_approver" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "console_setup_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_setup_one_row" CHECK ("id")
);
-- An installation that already has people was set up before this table existed.
INSERT INTO "console_setup" ("first_approver", "created_at", "completed_at")
SELECT "username", "created_at", "created_at" FROM "console_users" ORDER BY "id" LIMIT 1;
