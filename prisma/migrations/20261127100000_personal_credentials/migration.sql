-- Personal credentials (docs/operations.md, "Security model"): each person's own bearer secrets for the
-- admin API — API keys made on the console and short-lived CLI sign-ins. Only the SHA-256 digest of a
-- token is stored, so a copy of this table authenticates no one.

-- CreateEnum
CREATE TYPE "personal_credential_kind" AS ENUM ('API_KEY', 'SIGN_IN');

-- CreateTable
CREATE TABLE "personal_credentials" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" "personal_credential_kind" NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "digest" CHAR(64) NOT NULL,
    "label" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "personal_credentials_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "personal_credentials_digest_hex" CHECK ("digest" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "personal_credentials_expires_after_creation" CHECK ("expires_at" > "created_at")
);

-- CreateIndex
CREATE UNIQUE INDEX "personal_credentials_digest_key" ON "personal_credentials"("digest");

-- CreateIndex
CREATE INDEX "personal_credentials_prefix_idx" ON "personal_credentials"("prefix");

-- CreateIndex
CREATE INDEX "personal_credentials_user_id_idx" ON "personal_credentials"("user_id");

-- AddForeignKey
ALTER TABLE "personal_credentials" ADD CONSTRAINT "personal_credentials_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
