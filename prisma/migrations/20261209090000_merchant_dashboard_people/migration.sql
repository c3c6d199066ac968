-- The merchant's own people (docs/dashboard.md): who signs in to the merchant dashboard, how they enrolled,
-- their sessions, and the audit of every change they make to the merchant's team, keys, webhook and
-- allow-list. Entirely apart from the staff console's people (console_users and its tables): a merchant user
-- is never a console user, and no session of one opens the other's pages.
CREATE TYPE "merchant_user_role" AS ENUM ('OWNER', 'ADMIN', 'FINANCE', 'APPROVER', 'VIEWER');

-- A person of a merchant, known by their e-mail address (unique across merchants: the sign-in form asks for
-- nothing else). Null password and TOTP until they enroll themselves; enrollment_digest binds the account to
-- the one enrollment whose secret only they hold.
CREATE TABLE "merchant_users" (
    "id" SERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "role" "merchant_user_role" NOT NULL,
    "password_hash" VARCHAR(200),
    "password_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "enrollment_digest" CHAR(64),
    "totp_sealed" VARCHAR(200),
    "totp_pending_sealed" VARCHAR(200),
    "totp_last_step" BIGINT,
    "second_factor_failures" INTEGER NOT NULL DEFAULT 0,
    "second_factor_failed_at" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_by" VARCHAR(100),
    "added_by" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchant_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "merchant_users_email_lower_case" CHECK ("email" = lower("email") AND "email" LIKE '_%@_%')
);

CREATE UNIQUE INDEX "merchant_users_email_key" ON "merchant_users"("email");
CREATE UNIQUE INDEX "merchant_users_enrollment_digest_key" ON "merchant_users"("enrollment_digest");
CREATE INDEX "merchant_users_merchant_id_idx" ON "merchant_users"("merchant_id");
-- One owner per merchant.
CREATE UNIQUE INDEX "merchant_users_one_owner" ON "merchant_users"("merchant_id") WHERE "role" = 'OWNER';
ALTER TABLE "merchant_users" ADD CONSTRAINT "merchant_users_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An enrollment a person opened on their own device: only the SHA-256 of its secret is stored, and its
-- fingerprint is what they read to whoever adds them.
CREATE TABLE "merchant_user_enrollments" (
    "id" SERIAL NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "digest" CHAR(64) NOT NULL,
    "fingerprint" CHAR(9) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchant_user_enrollments_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "merchant_user_enrollments_digest_key" ON "merchant_user_enrollments"("digest");
CREATE INDEX "merchant_user_enrollments_email_idx" ON "merchant_user_enrollments"("email");

-- A single-use recovery code of a merchant user's second factor; only its SHA-256 is stored.
CREATE TABLE "merchant_user_recovery_codes" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "digest" CHAR(64) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "merchant_user_recovery_codes_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "merchant_user_recovery_codes_user_id_digest_key" ON "merchant_user_recovery_codes"("user_id", "digest");
ALTER TABLE "merchant_user_recovery_codes" ADD CONSTRAINT "merchant_user_recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "merchant_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A dashboard session: the browser holds a random id in a cookie, PostgreSQL only its SHA-256.
CREATE TABLE "merchant_user_sessions" (
    "id_hash" CHAR(64) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "csrf_token" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchant_user_sessions_pkey" PRIMARY KEY ("id_hash")
);

CREATE INDEX "merchant_user_sessions_user_id_idx" ON "merchant_user_sessions"("user_id");
ALTER TABLE "merchant_user_sessions" ADD CONSTRAINT "merchant_user_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "merchant_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What the merchant's people (and staff, on their behalf) changed of the merchant's access: team, tokens,
-- webhook endpoint, allow-list. Shown to the merchant's admins on the dashboard and to staff in the console.
CREATE TABLE "merchant_audit_events" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" INTEGER NOT NULL,
    "actor" VARCHAR(300) NOT NULL,
    "action" VARCHAR(50) NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchant_audit_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "merchant_audit_events_merchant_id_id_idx" ON "merchant_audit_events"("merchant_id", "id" DESC);
ALTER TABLE "merchant_audit_events" ADD CONSTRAINT "merchant_audit_events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A merchant's owner is bound to their own enrollment only through a request a second staff person approves
-- (docs/dashboard.md, "Enrollment").
ALTER TABLE "approval_requests" DROP CONSTRAINT "approval_requests_action_known";
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_action_known" CHECK (
  "action" IN ('wallet.credit', 'payout.resolve', 'discrepancy.resolve', 'statement.apply', 'token.issue',
               'statement.match', 'bulk.submit', 'user.add', 'user.role', 'user.password-reset',
               'merchant.ip-allowlist', 'statement.decide', 'merchant.create', 'merchant-owner.enroll'));
